import type { App } from "../app-context";
import { assertAdmin } from "../auth/access";
import type { RouteContext } from "../rest/router";

/**
 * `GET /api/metrics`: this process's Prometheus metrics in the text exposition format. Administrators only: a signed-in
 * administrator, or an API key of one with the `metrics` scope (a scraper's key needs nothing else).
 */
export async function metricsHandler({ app, caller }: RouteContext<App>): Promise<Response> {
  assertAdmin(caller, "The metrics");
  return new Response(await app.metrics.render(), { headers: { "content-type": app.metrics.contentType, "cache-control": "no-store" } });
}
