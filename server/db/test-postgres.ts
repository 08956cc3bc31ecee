import pg from "pg";
import { postgresUrlOrUndefined } from "./database-url";

/**
 * Throwaway PostgreSQL databases for tests. `TEST_DATABASE_URL` names a database on the server whose role may create
 * databases (e.g. postgresql://root@127.0.0.1:5432/postgres); when it is set the tests run on PostgreSQL. Every
 * database a test creates is named `<TEST_DATABASE_PREFIX><…>` (default `studio_test_`) and dropped by the test.
 */

export function testPostgresAdminUrl(): string | undefined {
  return postgresUrlOrUndefined(process.env.TEST_DATABASE_URL);
}

export function testDatabasePrefix(): string {
  return process.env.TEST_DATABASE_PREFIX?.trim() || "studio_test_";
}

/** A unique database name under the prefix (lower case, so it needs no quoting anywhere). */
export function uniqueDatabaseName(label: string): string {
  const rand = globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 10);
  return `${testDatabasePrefix()}${label}_${process.pid}_${rand}`.toLowerCase();
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrlFor(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Run `fn` with a connection to the admin database, closed afterwards. */
export async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  // An error while idle (the server ended the connection) is not the caller's: its query's promise reports its own.
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** CREATE DATABASE, optionally as a copy of `template` (which must have no open connections). */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  await withAdmin(adminUrl, (c) =>
    c.query(`CREATE DATABASE ${quote(name)}${template ? ` TEMPLATE ${quote(template)}` : ""}`),
  );
  return databaseUrlFor(adminUrl, name);
}

/** DROP DATABASE … WITH (FORCE): also ends connections a test left open. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`));
}
