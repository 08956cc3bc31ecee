import { agentSummaries } from "@/server/registry";
import type { App } from "../../app-context";
import type { RouteContext } from "../router";

/** `GET /api/agents`: the registry's agents with type, sides, exposeAsTool and required variables. */
export function listAgents({ app }: RouteContext<App>): Response {
  return Response.json({ agents: agentSummaries(app.registry.current()) });
}

/** `GET /api/diagnostics`: definition load and validation problems, each with file, field, message and fix. */
export function listDiagnostics({ app }: RouteContext<App>): Response {
  const snap = app.registry.current();
  return Response.json({ diagnostics: snap.diagnostics, loadedAt: snap.loadedAt, version: snap.version });
}
