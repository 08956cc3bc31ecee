import path from "node:path";

/** The embedded default: a SQLite file under `./data`, relative to the working directory. */
export const DEFAULT_DATABASE_URL = "file:./data/app.db";

export type DatabaseKind = "sqlite" | "postgresql";

/**
 * The database an installation runs on, worked out once from DATABASE_URL when the process starts (server/env.ts,
 * scripts/migrate.ts) and handed to everything that depends on it: the Prisma client, migrations, the event bus, the
 * work queue, health. Nothing else looks at the URL's form.
 */
export type DatabaseTarget =
  | {
      kind: "sqlite";
      /** `file:<absolute path>`, so that every process (server, worker, scripts, tests) opens the same file. */
      url: string;
      /** The SQLite file's absolute path (the URL without `file:` and query parameters). */
      file: string;
    }
  | { kind: "postgresql"; url: string };

export class DatabaseUrlError extends Error {
  readonly code = "DATABASE_URL_INVALID";
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/**
 * The target a database URL names: empty → the default; a `file:` URL (relative paths resolved against `cwd`) →
 * SQLite; a `postgres://` or `postgresql://` URL (unchanged) → PostgreSQL. Throws a `DatabaseUrlError` naming the
 * accepted forms otherwise.
 */
export function databaseTarget(url: string | undefined | null, cwd: string = process.cwd()): DatabaseTarget {
  const raw = url?.trim() || DEFAULT_DATABASE_URL;
  if (raw.startsWith("file:")) {
    const file = sqliteFilePath(raw, cwd);
    return { kind: "sqlite", url: `file:${file}`, file };
  }
  if (POSTGRES_URL.test(raw)) return { kind: "postgresql", url: raw };
  throw new DatabaseUrlError(
    `DATABASE_URL: unsupported URL "${redactDatabaseUrl(raw)}"; use file:./data/app.db (SQLite) or postgres://user:pass@host:5432/db (PostgreSQL)`,
  );
}

/**
 * For optional settings that may name a PostgreSQL server (TEST_DATABASE_URL, BENCH_POSTGRES_URL): the URL when it
 * is a PostgreSQL one, else undefined.
 */
export function postgresUrlOrUndefined(url: string | undefined): string | undefined {
  const raw = url?.trim();
  return raw && POSTGRES_URL.test(raw) ? raw : undefined;
}

/**
 * The absolute file path of a `file:` URL, resolved against `cwd` when relative. Query parameters
 * (`file:./app.db?mode=...`) are dropped: the SQLite driver takes a plain path.
 */
function sqliteFilePath(url: string, cwd: string): string {
  let p = url.slice("file:".length);
  const q = p.indexOf("?");
  if (q >= 0) p = p.slice(0, q);
  // file:///abs/path (URL form) and file:/abs/path both mean an absolute path
  if (p.startsWith("//")) p = p.replace(/^\/\/[^/]*/, "");
  if (p === "") throw new DatabaseUrlError(`DATABASE_URL: "${url}" names no file; use for example file:./data/app.db`);
  return path.resolve(cwd, p);
}

/** The URL with any password hidden, for logs and error messages. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
}
