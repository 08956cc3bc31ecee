/**
 * A constraint SQLite enforced, in the shape the API maps like Prisma's own (P2002 → 409 with the fields): SQLite's
 * message names them, e.g. `UNIQUE constraint failed: Message.id`.
 */
export function asPrismaLikeError(err: unknown): unknown {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code !== "string" || !/^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(e.code)) return err;
  const message = String(e.message ?? "");
  const fields = message
    .replace(/^.*failed:\s*/, "")
    .split(",")
    .map((f) => f.trim().replace(/^\w+\./, ""))
    .filter(Boolean);
  return Object.assign(new Error(message), { code: "P2002", meta: { target: fields }, cause: err });
}

/** Run a statement, reporting a unique violation as P2002. */
export function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw asPrismaLikeError(err);
  }
}
