/**
 * PostgreSQL ends one of two transactions that wait for each other's rows (deadlock, 40P01) or that cannot be
 * serialised (40001); Prisma reports both as P2034 (P2010 when the statement was raw SQL). Running the transaction
 * body again is then correct: nothing of the failed attempt was committed. SQLite never reports them.
 */
const RETRYABLE_SQLSTATES = new Set(["40001", "40P01"]);

export function isWriteConflict(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } } };
  // P2034 from Prisma; the SQLSTATE itself from a statement the runtime ran on the driver (pg-direct/).
  if (e.code === "P2034" || RETRYABLE_SQLSTATES.has(String(e.code))) return true;
  const cause = e.meta?.driverAdapterError?.cause;
  return cause?.kind === "TransactionWriteConflict" || RETRYABLE_SQLSTATES.has(String(cause?.originalCode));
}

/** Run `attempt` again (up to `tries` times in all, after a short random pause) while it fails with a write conflict. */
export async function retryOnWriteConflict<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= tries || !isWriteConflict(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * i));
    }
  }
}
