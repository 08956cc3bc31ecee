/**
 * Requests the HTTP servers in front of the routes (scripts/next-server.ts, server/api/node-http.ts) refuse before
 * anything parses them, with a 4xx in the API's error shape where the framework would fail and answer 500:
 * - a method the app does not support (TRACE cannot even become a fetch `Request`): 405;
 * - a path with malformed percent-encoding (Next.js fails decoding its route parameters): 400.
 */
export const SUPPORTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export interface FrontRefusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const refusal = (status: number, code: string, message: string, headers: Record<string, string> = {}): FrontRefusal => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify({ error: { code, message } }),
});

/** The answer to a request refused at the front, or null to let it through. */
export function frontRefusal(method: string | undefined, rawUrl: string | undefined): FrontRefusal | null {
  if (!method || !SUPPORTED_METHODS.includes(method)) {
    return refusal(405, "METHOD_NOT_ALLOWED", `${method ?? "This method"} is not supported`, { allow: SUPPORTED_METHODS.join(", ") });
  }
  const path = (rawUrl ?? "/").split("?")[0]!;
  try {
    decodeURIComponent(path);
  } catch {
    return refusal(400, "BAD_REQUEST", "The path has malformed percent-encoding");
  }
  return null;
}
