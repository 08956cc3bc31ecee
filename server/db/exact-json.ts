/**
 * Whether `JSON.parse(JSON.stringify(value))` gives back `value` exactly: strings, booleans, finite numbers (not -0),
 * null, arrays and plain objects of those, with no `undefined` member (dropped or turned into null), no `toJSON` and
 * no class instance (both stored as something else). An event that passes can stand for its own stored text, with
 * no parse of that text to get the value a reader of the log would see. Symbol-keyed and non-enumerable properties,
 * which typed events never have, are not looked for.
 */
export function exactJson(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      // Deeper than any stored value: a cycle, most likely; the caller's own path reports it.
      if (depth > 64) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!exactJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      if ("toJSON" in value) return false;
      for (const key in value) {
        if (!exactJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}
