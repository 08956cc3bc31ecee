/**
 * What an API key may do. `threads:read`: read threads, agents, definitions and the caller's own settings (GET);
 * `threads:write`: create threads, post messages, stop, terminate, write files and the caller's variables;
 * `admin`: user administration and instance variables (for keys of administrators only); `mcp`: list and call the
 * agents exposed as tools over the MCP endpoint `/api/mcp` (each call starts a thread for the key's user); `metrics`: read
 * the Prometheus metrics at `/api/metrics` (for keys of administrators only). A signed-in session may do
 * everything its role allows; managing API keys needs a session, never a key.
 */
export const API_SCOPES = ["threads:read", "threads:write", "admin", "mcp", "metrics"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** The scopes a new key gets when none are chosen. */
export const DEFAULT_API_SCOPES: ApiScope[] = ["threads:read", "threads:write"];

/** Scopes stored space-separated; unknown words are dropped. */
export function parseScopes(stored: string): ApiScope[] {
  const words = new Set(stored.split(/\s+/));
  return API_SCOPES.filter((s) => words.has(s));
}
