/**
 * The column formats Prisma's better-sqlite3 adapter writes and reads, so rows written here and rows written by Prisma
 * are the same: DateTime as ISO-8601 text with `+00:00`, Boolean as 0/1, Json as JSON text, BigInt as an integer.
 */

/** A DateTime parameter, as the adapter binds it. */
export const sqlDate = (d: Date): string => d.toISOString().replace("Z", "+00:00");

/** A DateTime column: ISO text (ours and Prisma's) or `CURRENT_TIMESTAMP`'s `YYYY-MM-DD HH:MM:SS` (UTC). */
export function readDate(v: unknown): Date {
  if (typeof v === "number") return new Date(v);
  const s = String(v);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(" ", "T")}Z`);
}

export const readOptionalDate = (v: unknown): Date | null => (v === null || v === undefined ? null : readDate(v));

/** A Json column read as text: the value Prisma would hand to the repositories' mappers. */
export const readJson = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : v);

export const readOptionalJson = (v: unknown): unknown => (v === null || v === undefined ? null : readJson(v));

/** A Json parameter: the value already checked by `toJsonColumn` (or null for SQL NULL). */
export const jsonParam = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

export const bool = (v: unknown): boolean => v === 1 || v === true || v === 1n;
