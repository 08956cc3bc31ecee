import type { App } from "@/server/worker/app";
import type { RouteContext } from "../router";

const version = "0.1.0";

/** Liveness and readiness: the database answers, the registry is loaded, and whether an LLM key is configured. */
export async function getHealth({ app }: RouteContext<App>): Promise<Response> {
  let database: { ok: boolean; kind: string; error?: string };
  const kind = app.config.databaseUrl.startsWith("file:") ? "sqlite" : "postgresql";
  try {
    await app.prisma.$queryRawUnsafe("SELECT 1");
    database = { ok: true, kind };
  } catch (err) {
    database = { ok: false, kind, error: err instanceof Error ? err.message : String(err) };
  }
  const snap = app.registry.current();
  const body = {
    status: database.ok ? "ok" : "degraded",
    version,
    uptimeSeconds: Math.round((Date.now() - app.startedAt.getTime()) / 1000),
    database,
    registry: {
      agents: snap.agents.size,
      errors: snap.diagnostics.filter((d) => d.severity === "error").length,
      warnings: snap.diagnostics.filter((d) => d.severity === "warning").length,
    },
    llm: app.config.OPENAI_API_KEY || app.config.OPENAI_BASE_URL
      ? { configured: true }
      : { configured: false, hint: "Set OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI endpoint) to run agents." },
  };
  return Response.json(body, { status: database.ok ? 200 : 503 });
}
