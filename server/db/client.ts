import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQueryable } from "@prisma/driver-adapter-utils";
import type { Database } from "better-sqlite3";
import pg from "pg";
import type { DatabaseKind, DatabaseTarget } from "./database-url";
import { Prisma, PrismaClient } from "./generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "./generated/prisma-postgresql/client";
import type { PgCaches } from "./pg-direct";
import { DirectPg } from "./pg-direct/connection";
import { PrismaBridge } from "./pg-direct/prisma-bridge";
import { DirectSqlite } from "./sqlite-direct/connection";
import { StateCache } from "./sqlite-direct/state-cache";
import { routeOutsideTransactions, transactionAdapterFactory } from "./sqlite-direct/read-connection";
import { shareTransactionLock } from "./sqlite-direct/transactions";
import { BACKSTOP_PAGES, startCheckpointer } from "./sqlite-checkpointer";
import { cacheStatements } from "./sqlite-statement-cache";

export { Prisma, PrismaClient };
/** The client handed to a `$transaction(async (tx) => ...)` callback. */
export type DbTransaction = Prisma.TransactionClient;
/** Either the client or a transaction client: what repositories accept. */
export type Db = PrismaClient | Prisma.TransactionClient;

export interface CreatePrismaClientOptions {
  /** SQLite: how long a write waits for another connection's lock before failing (ms). */
  busyTimeoutMs?: number;
  log?: Prisma.LogLevel[];
  /** SQLite: WAL checkpoints on a worker thread instead of inside the commits that cross the threshold (the app). */
  backgroundCheckpoint?: boolean;
  /**
   * SQLite: fail at once when a Prisma transaction is asked for inside a runtime transaction (default true). It costs
   * every promise of the process (see sqlite-direct/transactions.ts), so the app turns it off in production.
   */
  checkNestedTransactions?: boolean;
}

/** Set on every SQLite connection Prisma opens. */
export const SQLITE_PRAGMAS = [
  // Readers never block the writer and the writer never blocks readers (persistent in the file).
  "PRAGMA journal_mode = WAL",
  // Durable at each checkpoint; the recommended pairing with WAL.
  "PRAGMA synchronous = NORMAL",
  // Cascading deletes rely on it (better-sqlite3 builds SQLite with it on; stated so it never depends on the build).
  "PRAGMA foreign_keys = ON",
];

/**
 * better-sqlite3 has no option for the journal mode, so the factory runs the pragmas on each connection it hands
 * to Prisma, and the connection keeps its prepared statements (`cacheStatements`). The busy timeout is
 * better-sqlite3's own `timeout` option (sqlite3_busy_timeout).
 */
function sqliteAdapter(
  file: string,
  busyTimeoutMs: number,
  direct: DirectSqlite,
  backgroundCheckpoint: boolean,
  opened: (connection: { queryable: SqlQueryable; adapter: SqlDriverAdapter }) => void,
): SqlDriverAdapterFactory {
  const base = new PrismaBetterSqlite3({ url: file, timeout: busyTimeoutMs });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => {
      const adapter = await base.connect();
      const connection = (adapter as unknown as { client: Database }).client;
      cacheStatements(connection, 500, () => {
        direct.changed();
        direct.wrote();
      });
      await adapter.executeScript(SQLITE_PRAGMAS.map((p) => `${p};`).join("\n"));
      shareTransactionLock(
        adapter,
        direct.lock,
        () => direct.rolledBack(),
        () => direct.began(),
        () => direct.wrote(),
      );
      // Reads from outside an open transaction go to a read-only connection (sqlite-direct/read-connection.ts); an
      // in-memory database has no second connection to the same data.
      const reader = file === ":memory:" ? null : await new PrismaBetterSqlite3({ url: file, timeout: busyTimeoutMs, readonly: true }).connect();
      if (reader) cacheStatements((reader as unknown as { client: Database }).client, 500);
      opened({ queryable: routeOutsideTransactions(adapter, connection, () => reader, direct.lock), adapter });
      direct.attach(connection);
      const checkpointer = backgroundCheckpoint && file !== ":memory:" ? startCheckpointer(file) : null;
      if (checkpointer) connection.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await checkpointer?.stop();
        await reader?.dispose();
        await dispose();
      };
      return adapter;
    },
  };
}

/**
 * A PrismaClient for `database`: SQLite through better-sqlite3 (WAL, busy timeout, foreign keys on), PostgreSQL
 * through node-postgres. Run `migrateDatabase` first; the client connects lazily on its first query. Call
 * `$disconnect()` when done.
 */
export function createPrismaClient(database: DatabaseTarget, opts: CreatePrismaClientOptions = {}): PrismaClient {
  if (database.kind === "postgresql") return createPostgresClient(database.url, opts);
  const direct = new DirectSqlite(opts.checkNestedTransactions ?? true);
  let connection: { queryable: SqlQueryable; adapter: SqlDriverAdapter } | null = null;
  const client = new PrismaClient({
    adapter: sqliteAdapter(database.file, opts.busyTimeoutMs ?? 10_000, direct, opts.backgroundCheckpoint ?? false, (c) => (connection = c)),
    log: opts.log,
  });
  kinds.set(client, database.kind);
  directConnections.set(client, direct);
  transactionClients.set(client, new PrismaClient({ adapter: transactionAdapterFactory(() => connection), log: opts.log }));
  return client;
}

/**
 * PostgreSQL: one pool (pipeline mode, see pg-direct/connection.ts) shared by Prisma's adapter and the runtime's
 * direct statements, and a second client whose transactions run on a connection a runtime transaction holds
 * (pg-direct/prisma-bridge.ts). Both clients are generated from prisma/postgresql/schema.prisma, the same models as
 * the SQLite client: same model and argument types, only the provider-specific query compiler differs.
 * Repositories use the SQLite client's types.
 */
function createPostgresClient(url: string, opts: CreatePrismaClientOptions): PrismaClient {
  // Idle connections are kept for minutes, not pg-pool's 10 s: a worker between bursts of work would otherwise open
  // them again (a backend each, and every named statement prepared again on it), a cost per process.
  const pool = new pg.Pool({ connectionString: url, pipeline: true, max: POSTGRES_POOL_SIZE, idleTimeoutMillis: POSTGRES_IDLE_MS });
  // An idle connection that breaks (a server restart, a dropped database) is discarded by the pool; the next query
  // opens another. Without a listener the error would end the process.
  pool.on("error", () => {});
  const client = new PostgresPrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }), log: opts.log }) as unknown as PrismaClient;
  const bridge = new PrismaBridge(pool);
  bridge.attach(new PostgresPrismaClient({ adapter: bridge.factory(), log: opts.log }) as unknown as PrismaClient);
  kinds.set(client, "postgresql");
  const direct = new DirectPg(pool);
  directPostgres.set(client, { direct, bridge, caches: { states: new StateCache(), history: direct.history } });
  return client;
}

/** Connections per process for Prisma and the runtime's statements (pg-boss and LISTEN have their own). */
export const POSTGRES_POOL_SIZE = 10;
/** How long an idle pooled connection stays open (ms). */
export const POSTGRES_IDLE_MS = 300_000;

const directPostgres = new WeakMap<PrismaClient, { direct: DirectPg; bridge: PrismaBridge; caches: PgCaches }>();

/** PostgreSQL: the client's pool for the runtime's per-step statements (pg-direct/); null on SQLite. */
export function directPostgresOf(prisma: PrismaClient): { direct: DirectPg; bridge: PrismaBridge; caches: PgCaches } | null {
  return directPostgres.get(prisma) ?? null;
}

const transactionClients = new WeakMap<PrismaClient, PrismaClient>();

/**
 * SQLite: the client that runtime transactions on the connection (`DirectSqlite.transaction`) run their stores'
 * Prisma queries through: the same connection, without the routing of queries from outside a transaction
 * (sqlite-direct/read-connection.ts). Null on PostgreSQL.
 */
export function transactionClientOf(prisma: PrismaClient): PrismaClient | null {
  return transactionClients.get(prisma) ?? null;
}

const directConnections = new WeakMap<PrismaClient, DirectSqlite>();

/** SQLite: the client's own connection, for the runtime's per-step statements (sqlite-direct/); null on PostgreSQL. */
export function directSqliteOf(prisma: PrismaClient): DirectSqlite | null {
  return directConnections.get(prisma) ?? null;
}

const kinds = new WeakMap<PrismaClient, DatabaseKind>();

/** The database behind a client made by `createPrismaClient`. */
export function databaseKindOf(prisma: PrismaClient): DatabaseKind {
  const kind = kinds.get(prisma);
  if (!kind) throw new Error("databaseKindOf: this PrismaClient was not made by createPrismaClient");
  return kind;
}
