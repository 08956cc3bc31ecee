import type { ControllerReturn } from "@/server/spec";

/**
 * What an endpoint or a controller returned, as a response: a `Response` as it is, a string as `text/plain`, nothing
 * as 204, anything else as JSON.
 */
export function toResponse(value: ControllerReturn): Response {
  if (value instanceof Response) return value;
  if (value === undefined) return new Response(null, { status: 204 });
  if (typeof value === "string") return new Response(value, { headers: { "content-type": "text/plain; charset=utf-8" } });
  return Response.json(value);
}

/** The error shape of every route (`{error: {code, message}}`) with a 500, for a handler that threw. */
export function handlerFailed(file: string, message: string): Response {
  return Response.json({ error: { code: "ENDPOINT_ERROR", message: `${file} failed: ${message}` } }, { status: 500 });
}
