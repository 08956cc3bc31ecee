/**
 * How many rows arrived below what the reader had: the rows after the last row that was already there. Older pages
 * prepended above, rows that changed in place and a list replaced wholesale (another thread) count for nothing.
 */
export function appendedRows(before: readonly { key: string }[], after: readonly { key: string }[]): number {
  if (before.length === 0) return 0;
  const known = new Set(before.map((r) => r.key));
  for (let i = after.length - 1; i >= 0; i--) if (known.has(after[i]!.key)) return after.length - 1 - i;
  return 0;
}
