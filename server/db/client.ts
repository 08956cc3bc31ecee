import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { databaseKind, sqliteFilePath } from "./database-url";
import { Prisma, PrismaClient } from "./generated/prisma/client";

export { Prisma, PrismaClient };
/** The client handed to a `$transaction(async (tx) => ...)` callback. */
export type DbTransaction = Prisma.TransactionClient;
/** Either the client or a transaction client: what repositories accept. */
export type Db = PrismaClient | Prisma.TransactionClient;

export interface CreatePrismaClientOptions {
  /** SQLite: how long a write waits for another connection's lock before failing (ms). */
  busyTimeoutMs?: number;
  log?: Prisma.LogLevel[];
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
 * to Prisma. The busy timeout is better-sqlite3's own `timeout` option (sqlite3_busy_timeout).
 */
function sqliteAdapter(url: string, busyTimeoutMs: number): SqlDriverAdapterFactory {
  const base = new PrismaBetterSqlite3({ url: sqliteFilePath(url), timeout: busyTimeoutMs });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => {
      const adapter = await base.connect();
      await adapter.executeScript(SQLITE_PRAGMAS.map((p) => `${p};`).join("\n"));
      return adapter;
    },
  };
}

/**
 * A PrismaClient for `databaseUrl`: `file:` URLs through better-sqlite3 (WAL, busy timeout, foreign keys on),
 * `postgres://` / `postgresql://` through node-postgres. Run `migrateDatabase` first; the client connects lazily on
 * its first query. Call `$disconnect()` when done.
 */
export function createPrismaClient(databaseUrl: string, opts: CreatePrismaClientOptions = {}): PrismaClient {
  const adapter =
    databaseKind(databaseUrl) === "sqlite"
      ? sqliteAdapter(databaseUrl, opts.busyTimeoutMs ?? 10_000)
      : new PrismaPg({ connectionString: databaseUrl });
  return new PrismaClient({ adapter, log: opts.log });
}
