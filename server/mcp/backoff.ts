/**
 * The wait before the next connection attempt after `failures` failures in a row: exponential (base, 2×base, 4×base,
 * …) up to `maxMs`, with up to 20% jitter so that many sessions do not retry in step.
 */
export function nextRetryDelay(failures: number, baseMs = 500, maxMs = 30_000, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(exp * (0.8 + 0.2 * random()));
}
