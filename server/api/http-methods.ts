/**
 * The HTTP methods the app answers. Others (TRACE, TRACK, CONNECT cannot even become a fetch `Request`) are refused
 * by the HTTP servers in front of the routes with a 405 in the API's error shape, instead of a failure to build the
 * request (500).
 */
export const SUPPORTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The 405 answer to an unsupported method, as status, headers and body for a Node `ServerResponse`. */
export function unsupportedMethod(method: string | undefined): { status: number; headers: Record<string, string>; body: string } | null {
  if (method && SUPPORTED_METHODS.includes(method)) return null;
  return {
    status: 405,
    headers: { "content-type": "application/json", allow: SUPPORTED_METHODS.join(", ") },
    body: JSON.stringify({ error: { code: "METHOD_NOT_ALLOWED", message: `${method ?? "This method"} is not supported` } }),
  };
}
