/** A row as the counter sees it: its key, and its kind (a reply still streaming or an unsent message is not new yet). */
interface CountedRow {
  key: string;
  kind?: string;
}

const TRANSIENT = new Set(["streaming", "pending"]);

/**
 * How many rows arrived below what the reader had: the rows after the last row that was already there. Older pages
 * prepended above, rows that changed in place and a list replaced wholesale (another thread) count for nothing; a
 * reply counts once it is stored, not while it streams.
 */
export function appendedRows(before: readonly CountedRow[], after: readonly CountedRow[]): number {
  if (before.length === 0) return 0;
  const known = new Set(before.map((r) => r.key));
  for (let i = after.length - 1; i >= 0; i--) {
    if (!known.has(after[i]!.key)) continue;
    return after.slice(i + 1).filter((r) => !TRANSIENT.has(r.kind ?? "")).length;
  }
  return 0;
}
