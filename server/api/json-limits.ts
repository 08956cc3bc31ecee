import { ApiError } from "./errors";

/** Deepest nesting of arrays and objects accepted in a request body (deeper input could exhaust the stack). */
export const MAX_JSON_DEPTH = 100;
/** Largest JSON request body accepted (file uploads are raw bytes, not JSON, and have their own limit). */
export const MAX_JSON_BYTES = 10 * 1024 * 1024;

/** True when the JSON text nests arrays or objects deeper than `limit` (brackets inside strings do not count). */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** 413 for a JSON body larger or deeper than the API accepts, before anything parses it. */
export function assertJsonWithinLimits(text: string): void {
  if (text.length > MAX_JSON_BYTES) throw new ApiError(413, "PAYLOAD_TOO_LARGE", `The JSON body is larger than ${MAX_JSON_BYTES / 1024 / 1024} MB`);
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new ApiError(413, "PAYLOAD_TOO_LARGE", `The JSON body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`);
  }
}
