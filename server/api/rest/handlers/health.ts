import type { App } from "../../app-context";
import { collectHealth } from "../../health";
import type { RouteContext } from "../router";

/**
 * Liveness and readiness of this process: role, database (with latency), queue depth, workers seen, event bus,
 * registry and whether an LLM key is configured. 503 when the database or the event bus is unreachable.
 */
export async function getHealth({ app }: RouteContext<App>): Promise<Response> {
  const { httpStatus, body } = await collectHealth(app);
  return Response.json(body, { status: httpStatus, headers: { "cache-control": "no-store" } });
}
