import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlQueryable, Transaction } from "@prisma/driver-adapter-utils";
import type pg from "pg";
import type { Prisma, PrismaClient } from "../generated/prisma/client";

type Queryable = SqlQueryable & { adapterName: string };

/**
 * Prisma transactions on a connection a runtime transaction already holds (transactions.ts), for the store methods
 * that stay with Prisma: a second client whose adapter's `startTransaction` hands out that connection. Its
 * transactions are "phantom" for Prisma (no BEGIN or COMMIT of its own): the runtime transaction begins and ends
 * them. One hand-over at a time (`chain`): a Prisma transaction starts within microtasks of `open`, with no I/O in
 * between, so the lock is held for no longer than that.
 */
export class PrismaBridge {
  private client: PrismaClient | null = null;
  private chain: Promise<void> = Promise.resolve();
  private handoff: Transaction | null = null;
  private makeQueryable: ((conn: pg.PoolClient) => Queryable) | null = null;

  constructor(private readonly pool: pg.Pool) {}

  /** The client made with `factory()` (set once, right after it is made). */
  attach(client: PrismaClient): void {
    this.client = client;
  }

  factory(): SqlDriverAdapterFactory {
    const base = new PrismaPg(this.pool);
    return {
      provider: base.provider,
      adapterName: base.adapterName,
      connect: async (): Promise<SqlDriverAdapter> => {
        const adapter = await base.connect();
        // The adapter's own class, bound to one pooled connection instead of the pool: its queries run there.
        const Adapter = adapter.constructor as new (client: pg.PoolClient) => Queryable;
        this.makeQueryable = (conn) => new Adapter(conn);
        return {
          provider: adapter.provider,
          adapterName: adapter.adapterName,
          queryRaw: (q) => adapter.queryRaw(q),
          executeRaw: (q) => adapter.executeRaw(q),
          executeScript: (s) => adapter.executeScript(s),
          getConnectionInfo: () => adapter.getConnectionInfo!(),
          startTransaction: async () => {
            const t = this.handoff;
            this.handoff = null;
            if (!t) throw new Error("PrismaBridge: a transaction was started without a connection to run on");
            return t;
          },
          // The pool belongs to the main client.
          dispose: async () => {},
        };
      },
    };
  }

  /** A Prisma transaction on `conn`, inside the transaction already open there; `close` ends it (not the connection's). */
  async open(conn: pg.PoolClient): Promise<{ tx: Prisma.TransactionClient; close(err?: unknown): Promise<void> }> {
    const client = this.client;
    if (!client) throw new Error("PrismaBridge: no client attached");
    const previous = this.chain;
    let unlock!: () => void;
    this.chain = new Promise((r) => (unlock = r));
    await previous;
    // The adapter class is known once the client has connected (its first transaction connects it).
    this.handoff = this.makeQueryable ? this.transactionOn(conn) : null;
    let finish!: (err?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => (finish = (err) => (err ? reject(err) : resolve())));
    let ready!: (tx: Prisma.TransactionClient) => void;
    let failed!: (err: unknown) => void;
    const started = new Promise<Prisma.TransactionClient>((resolve, reject) => ((ready = resolve), (failed = reject)));
    if (!this.makeQueryable) await client.$connect();
    this.handoff ??= this.transactionOn(conn);
    const settled = client.$transaction(
      async (tx) => {
        unlock();
        ready(tx);
        await done;
      },
      { maxWait: 30_000, timeout: 60_000 },
    );
    settled.catch((err: unknown) => {
      unlock();
      failed(err);
    });
    const tx = await started;
    return {
      tx,
      async close(err?: unknown) {
        finish(err);
        await settled.catch(() => {});
      },
    };
  }

  private transactionOn(conn: pg.PoolClient): Transaction {
    const q = this.makeQueryable!(conn);
    const exec = (sql: string) => q.executeRaw({ sql, args: [], argTypes: [] } satisfies SqlQuery).then(() => {});
    return {
      provider: "postgres",
      adapterName: q.adapterName,
      options: { usePhantomQuery: true },
      queryRaw: (query) => q.queryRaw(query),
      executeRaw: (query) => q.executeRaw(query),
      commit: async () => {},
      rollback: async () => {},
      createSavepoint: (name) => exec(`SAVEPOINT ${name}`),
      rollbackToSavepoint: (name) => exec(`ROLLBACK TO SAVEPOINT ${name}`),
      releaseSavepoint: (name) => exec(`RELEASE SAVEPOINT ${name}`),
    };
  }
}
