import http from "node:http";
import type { AddressInfo } from "node:net";

/** One span as an OTLP/JSON export carries it, with its attributes flattened and its process's resource. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  status: { code?: number; message?: string };
}

export interface OtlpReceiver {
  /** Base URL for `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporter posts to `<url>/v1/traces`). */
  url: string;
  spans: ReceivedSpan[];
  /** Paths posted to other than /v1/traces (metrics or logs the exporters should not send). */
  otherPaths: string[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };
const valueOf = (v: AnyValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? v.arrayValue?.values?.map(valueOf);
const flatten = (attrs: { key: string; value: AnyValue }[] | undefined) => Object.fromEntries((attrs ?? []).map((a) => [a.key, valueOf(a.value)]));

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 that accepts the JSON encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`),
 * as a collector does: it answers 200 with an empty partial-success body and keeps every span it was sent.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const otherPaths: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        otherPaths.push(`${req.method} ${req.url}`);
        res.writeHead(404).end();
        return;
      }
      if (!String(req.headers["content-type"]).includes("application/json")) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      for (const rs of body.resourceSpans ?? []) {
        const resource = flatten(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? "",
              name: s.name,
              kind: s.kind,
              attributes: flatten(s.attributes),
              resource,
              status: s.status ?? {},
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    otherPaths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
