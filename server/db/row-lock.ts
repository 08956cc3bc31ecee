import type { DatabaseKind } from "./database-url";
import type { Db } from "./client";
import type { Thread } from "./generated/prisma/client";

/**
 * Per-thread write serialisation inside a transaction, so that read-modify-write sequences (a thread's state, the
 * next message or queue seq) behave the same on both databases:
 * - SQLite: a process runs one transaction at a time and a writing transaction holds the database's write lock, so
 *   nothing else can interleave; the lock is a no-op.
 * - PostgreSQL (read committed): `SELECT … FOR UPDATE` on the thread row makes concurrent transactions of the same
 *   thread, from any process, wait for each other until commit.
 * Outside a transaction it only waits for a transaction that holds the row.
 */
export interface ThreadLock {
  (threadId: string): Promise<void>;
  /**
   * The thread's row as the lock read it, kept current by the store's own writes in this transaction (`wrote`); null
   * when the thread does not exist; undefined when it is not locked here (SQLite: never). A locked row cannot change
   * under the transaction, so a read of it needs no query of its own.
   */
  row(threadId: string): Promise<Thread | null | undefined>;
  /** The store wrote the row in this transaction: its new value. */
  wrote(threadId: string, row: Thread): void;
}

export function threadLock(db: Db, kind: DatabaseKind): ThreadLock {
  if (kind === "sqlite") return Object.assign(async () => {}, { row: async () => undefined, wrote: () => {} });
  // A row stays locked until the transaction ends: each thread is locked once per transaction (a step's transaction
  // used to lock it twice), and the lock reads the row (a step's transaction reads it after locking it: one query
  // instead of two). One connection runs the statements in order, so a statement sent after the first lock runs after
  // it even when it does not wait for it.
  const locked = new Map<string, Promise<Thread | null>>();
  const lock = (threadId: string): Promise<Thread | null> => {
    let pending = locked.get(threadId);
    if (!pending) {
      // Prisma's query promise runs when first awaited: made a plain promise here, it runs once for every waiter.
      pending = Promise.resolve(db.$queryRaw<Thread[]>`SELECT * FROM "Thread" WHERE "id" = ${threadId} FOR UPDATE`).then((rows) => rows[0] ?? null);
      locked.set(threadId, pending);
    }
    return pending;
  };
  return Object.assign(
    async (threadId: string) => {
      await lock(threadId);
    },
    {
      row: (threadId: string) => locked.get(threadId) ?? Promise.resolve(undefined),
      wrote: (threadId: string, row: Thread) => {
        if (locked.has(threadId)) locked.set(threadId, Promise.resolve(row));
      },
    },
  );
}

/** An arbitrary constant naming the work-claim lock among PostgreSQL advisory locks. */
const WORK_CLAIM_LOCK = 734_001;

/**
 * Serialises work claims across connections until the transaction ends: on PostgreSQL a transaction-level advisory
 * lock, so that two processes never claim the same item or two items of one thread; SQLite already runs one writing
 * transaction at a time.
 */
export function workClaimLock(db: Db, kind: DatabaseKind): () => Promise<void> {
  if (kind === "sqlite") return async () => {};
  return async () => {
    await db.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${WORK_CLAIM_LOCK}::bigint)) AS l`;
  };
}
