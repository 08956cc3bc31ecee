import { isZodObjectLike } from "@/server/spec";

/**
 * The field names of a zod object schema (`requiredSchema`, tool `args`), or undefined when `schema` is not a zod
 * object. Read from the schema's definition, so schemas built by another copy of zod work too.
 */
export function zodObjectFields(schema: unknown): string[] | undefined {
  if (!isZodObjectLike(schema)) return undefined;
  const def = (schema as unknown as { _zod: { def: { shape?: unknown } } })._zod.def;
  const shape = typeof def.shape === "function" ? (def.shape as () => unknown)() : def.shape;
  if (typeof shape !== "object" || shape === null) return undefined;
  return Object.keys(shape);
}

/** "a", "a and b", "a, b and c" with each item in backticks. */
export function listNames(names: readonly string[], max = 12): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, max).map((n) => `\`${n}\``);
  const more = names.length > max ? ` and ${names.length - max} more` : "";
  if (shown.length === 1) return `${shown[0]}${more}`;
  if (more) return `${shown.join(", ")}${more}`;
  return `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
}

/** The closest candidate by edit distance, when it is close enough to be a likely typo. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  return bestDistance <= Math.max(2, Math.floor(name.length / 4)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      prev[j] = Math.min(up + 1, (prev[j - 1] ?? 0) + 1, diag + cost);
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}

/** " Did you mean `x`?" or "" */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const c = closestName(name, candidates);
  return c !== undefined && c !== name ? ` Did you mean \`${c}\`?` : "";
}
