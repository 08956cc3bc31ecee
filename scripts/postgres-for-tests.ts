/**
 * Which PostgreSQL server `npm test` runs the integration tests against a second time. TEST_DATABASE_URL names a
 * database on it whose role may create databases; without it the local server is tried as the OS user. The answer says why when
 * there is none (unreachable, no CREATEDB), so the skip can be reported.
 */
import os from "node:os";
import pg from "pg";
import { postgresUrlOrUndefined, redactDatabaseUrl } from "../server/db/database-url";

/** The local server as the current OS user (PostgreSQL's own default role name). */
export const DEFAULT_TEST_POSTGRES_URL = `postgresql://${os.userInfo().username}@127.0.0.1:5432/postgres`;

export type PostgresForTests = { url: string } | { url: null; reason: string };

export async function postgresForTests(env: NodeJS.ProcessEnv = process.env): Promise<PostgresForTests> {
  const configured = env.TEST_DATABASE_URL?.trim();
  if (configured && !postgresUrlOrUndefined(configured)) {
    return { url: null, reason: `TEST_DATABASE_URL is not a postgres:// URL` };
  }
  const url = configured || DEFAULT_TEST_POSTGRES_URL;
  const shown = redactDatabaseUrl(url);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ ok: boolean }>(
      "SELECT (rolcreatedb OR rolsuper) AS ok FROM pg_roles WHERE rolname = current_user",
    );
    if (!rows[0]?.ok) return { url: null, reason: `the role of ${shown} may not create databases (ALTER ROLE … CREATEDB)` };
    return { url };
  } catch (err) {
    return { url: null, reason: `${shown} is not reachable (${err instanceof Error ? err.message : String(err)})` };
  } finally {
    await client.end().catch(() => {});
  }
}
