import { agentSummaries, sortDiagnostics, type AgentSummary } from "@/server/registry";
import { mountedEndpoints, type BuiltInThreadRoute } from "../../endpoints/mounted";
import type { App } from "../../app-context";
import type { RouteContext } from "../router";
import { mcpDownDiagnostics } from "../../mcp/down-diagnostics";

/** The origin the client addressed: behind a proxy, the forwarded protocol and host. */
function publicOrigin(request: Request, url: URL): string {
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return host ? `${proto || url.protocol.replace(":", "")}://${host}` : url.origin;
}

/** An agent icon given as an absolute path (`/icons/support.svg`) becomes a full URL, as the spec asks of API responses. */
function withIconUrl(summary: AgentSummary, origin: string): AgentSummary {
  if (!summary.icon?.startsWith("/") || summary.icon.startsWith("//")) return summary;
  return { ...summary, icon: new URL(summary.icon, origin).href };
}

/** `GET /api/agents`: the registry's agents with type, sides, exposeAsTool and required variables. */
export function listAgents({ app, request, url }: RouteContext<App>): Response {
  const origin = publicOrigin(request, url);
  return Response.json({ agents: agentSummaries(app.registry.current()).map((a) => withIconUrl(a, origin)) });
}

/**
 * `GET /api/diagnostics`: definition load and validation problems, each with file, field, message and fix (thread
 * endpoints that collide with a built-in route included).
 */
export function listDiagnostics({ app }: RouteContext<App>, builtIns: readonly BuiltInThreadRoute[]): Response {
  const snap = app.registry.current();
  const diagnostics = sortDiagnostics([...snap.diagnostics, ...mountedEndpoints(snap, builtIns).diagnostics, ...mcpDownDiagnostics(app)]);
  return Response.json({ diagnostics, loadedAt: snap.loadedAt, version: snap.version });
}
