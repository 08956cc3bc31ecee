import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type pgTypes from "pg";
import type { DatabaseTarget } from "./database-url";

/**
 * Driver adapter factories for the WASM schema engine, with the fixes it needs on this stack:
 * - SQLite: the shadow database replays each whole `migration.sql` through `executeRaw()`, which better-sqlite3
 *   rejects for multi-statement SQL; parameterless `executeRaw` on the shadow connection runs as a script instead
 *   (`shadowScriptFallback`, applied by `createSchemaEngine` to any factory).
 * - PostgreSQL: the engine's schema describer selects pg_catalog `"char"` columns (OID 18), which adapter-pg cannot
 *   map; the migration connections (only those) report them as `text`. And adapter-pg's own shadow database
 *   connects to the main database (pg ignores `database` next to a `connectionString`) and drops it before closing
 *   the pool; the shadow database is created, connected and dropped here instead (the role needs CREATEDB).
 *   And adapter-pg runs a script by splitting it at every `;`, which breaks a statement with one inside it (a
 *   PL/pgSQL function's body, a string): the migration connections run each script whole, as one simple query (one
 *   implicit transaction, as `psql -f` or Prisma's native engine would run it).
 */

export interface MigrationAdapterOptions {
  /** SQLite: how long to wait for another connection's lock (ms). */
  busyTimeoutMs?: number;
}

/** Make `dispose()` safe to call twice (the engine and `close()` may both dispose a connection). */
export function disposeOnce<T extends SqlDriverAdapter>(adapter: T): T {
  const dispose = adapter.dispose.bind(adapter);
  let done: Promise<void> | undefined;
  adapter.dispose = () => (done ??= dispose());
  return adapter;
}

export function shadowScriptFallback(
  factory: SqlMigrationAwareDriverAdapterFactory,
): SqlMigrationAwareDriverAdapterFactory {
  if (factory.provider !== "sqlite") return factory;
  return {
    adapterName: factory.adapterName,
    provider: factory.provider,
    connect: () => factory.connect(),
    connectToShadowDb: async () => {
      const shadow = await factory.connectToShadowDb();
      const executeRaw = shadow.executeRaw.bind(shadow);
      shadow.executeRaw = async (query) => {
        if (query.args.length === 0) {
          await shadow.executeScript(query.sql);
          return 0;
        }
        return executeRaw(query);
      };
      return shadow;
    },
  };
}

/** SQLite: `file` is the database file's path, or `:memory:` for a throwaway database (diffs need only the shadow database). */
export async function sqliteMigrationAdapterFactory(
  file: string,
  opts: MigrationAdapterOptions = {},
): Promise<SqlMigrationAwareDriverAdapterFactory> {
  const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
  return new PrismaBetterSqlite3({ url: file, timeout: opts.busyTimeoutMs ?? 10_000 });
}

type Pg = typeof pgTypes;
type QueryResultLike = { fields?: { dataTypeID: number }[] };

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

function charAsText<R>(result: R): R {
  for (const r of Array.isArray(result) ? result : [result]) {
    for (const f of (r as QueryResultLike | undefined)?.fields ?? [])
      if (f.dataTypeID === PG_CHAR_OID) f.dataTypeID = PG_TEXT_OID;
  }
  return result;
}

/** A pg Client whose results report `"char"` columns as text (used by the migration pools only). */
function charAsTextClient(pg: Pg): Pg["Client"] {
  class CharAsTextClient extends pg.Client {
    // pg's overloads cannot be restated generically; the behaviour is unchanged apart from the field types.
    override query(...args: unknown[]): never {
      const cb = args.findIndex((a) => typeof a === "function");
      if (cb >= 0) {
        const callback = args[cb] as (err: unknown, res: unknown) => void;
        args[cb] = (err: unknown, res: unknown) => callback(err, err ? res : charAsText(res));
      }
      const out = (super.query as (...a: unknown[]) => unknown)(...args);
      return (out instanceof Promise ? out.then(charAsText) : out) as never;
    }
  }
  return CharAsTextClient;
}

/**
 * `executeScript` as one simple query on the adapter's pool (pg sends a query without parameters that way, and
 * PostgreSQL runs its statements in turn), errors reported through the adapter's own mapping. An adapter without
 * those members (another adapter-pg version) keeps its own.
 */
function wholeScripts<T extends SqlDriverAdapter>(adapter: T): T {
  const inner = adapter as unknown as { client?: { query?: (sql: string) => Promise<unknown> }; onError?: (err: unknown) => never };
  const { client, onError } = inner;
  if (typeof client?.query !== "function" || typeof onError !== "function") return adapter;
  adapter.executeScript = async (script: string) => {
    try {
      await client.query!(script);
    } catch (err) {
      onError.call(adapter, err);
    }
  };
  return adapter;
}

export async function pgMigrationAdapterFactory(url: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
  const pg = (await import("pg")).default;
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const Client = charAsTextClient(pg);
  const base = new PrismaPg({ connectionString: url, Client });
  return {
    adapterName: base.adapterName,
    provider: base.provider,
    connect: async () => wholeScripts(await base.connect()),
    connectToShadowDb: async () => {
      const name = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } catch (err) {
        await admin.end();
        const reason = err instanceof Error ? err.message : String(err);
        throw new Error(
          `Cannot create the shadow database used to compare migrations with the schema (${reason}). ` +
            `Grant the database role CREATEDB (ALTER ROLE <role> CREATEDB) or run this command against a database where it has it.`,
          { cause: err },
        );
      }
      const shadowUrl = new URL(url);
      shadowUrl.pathname = `/${name}`;
      const adapter = wholeScripts(await new PrismaPg({ connectionString: shadowUrl.toString(), Client }).connect());
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        try {
          await dispose();
        } finally {
          await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
          await admin.end();
        }
      };
      return adapter;
    },
  };
}

/** The migration adapter factory for a database. */
export async function migrationAdapterFactory(
  database: DatabaseTarget,
  opts: MigrationAdapterOptions = {},
): Promise<SqlMigrationAwareDriverAdapterFactory> {
  return database.kind === "postgresql" ? pgMigrationAdapterFactory(database.url) : sqliteMigrationAdapterFactory(database.file, opts);
}
