import { z } from "zod";
import type { App } from "../app-context";
import { readJson, type RouteContext } from "../rest/router";

type Ctx = RouteContext<App>;

/** The body of `POST /api/threads/:id/logs/:logId/replay` (both fields optional: `{}` replays as it was). */
export const replayBody = z
  .object({
    model: z.string({ error: "model must be the name of a model definition" }).min(1, { error: "model must not be empty" }).optional(),
    body: z.record(z.string(), z.unknown(), { error: "body must be a JSON object: the request as the request log shows it" }).optional(),
  })
  .strict();

/**
 * `POST /api/threads/:id/logs/:logId/replay` `{model?, body?}` → 200 `{logId, edited, original, replay}`: the logged
 * request sent again (as it was, or the edited `body`) to its model or to `model`, with the old and the new answer
 * (text, tool calls, tokens, cost, latency). The thread is not touched: no message, event or request-log row.
 */
export async function replayHandler({ params, request, app }: Ctx): Promise<Response> {
  const input = replayBody.parse((await readJson(request)) ?? {});
  const result = await app.runtime.replayRequest(params.id!, params.logId!, input, request.signal);
  return Response.json(result);
}
