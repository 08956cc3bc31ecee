import path from "node:path";

/** The embedded default: a SQLite file under `./data`, relative to the working directory. */
export const DEFAULT_DATABASE_URL = "file:./data/app.db";

export type DatabaseKind = "sqlite" | "postgresql";

export class DatabaseUrlError extends Error {
  readonly code = "DATABASE_URL_INVALID";
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export function isSqliteUrl(url: string): boolean {
  return url.startsWith("file:");
}

export function isPostgresUrl(url: string): boolean {
  return POSTGRES_URL.test(url);
}

/** Which database a URL points at; throws a `DatabaseUrlError` naming the accepted forms otherwise. */
export function databaseKind(url: string): DatabaseKind {
  if (isSqliteUrl(url)) return "sqlite";
  if (isPostgresUrl(url)) return "postgresql";
  throw new DatabaseUrlError(
    `DATABASE_URL: unsupported URL "${redactDatabaseUrl(url)}"; use file:./data/app.db (SQLite) or postgres://user:pass@host:5432/db (PostgreSQL)`,
  );
}

/**
 * The absolute file path of a `file:` URL, resolved against `cwd` when relative. Query parameters
 * (`file:./app.db?mode=...`) are dropped: the SQLite driver takes a plain path.
 */
export function sqliteFilePath(url: string, cwd: string = process.cwd()): string {
  if (!isSqliteUrl(url)) throw new DatabaseUrlError(`not a SQLite file: URL: "${redactDatabaseUrl(url)}"`);
  let p = url.slice("file:".length);
  const q = p.indexOf("?");
  if (q >= 0) p = p.slice(0, q);
  // file:///abs/path (URL form) and file:/abs/path both mean an absolute path
  if (p.startsWith("//")) p = p.replace(/^\/\/[^/]*/, "");
  if (p === "") throw new DatabaseUrlError(`DATABASE_URL: "${url}" names no file; use for example file:./data/app.db`);
  return path.resolve(cwd, p);
}

/**
 * Normalise a database URL: empty → the default; `file:` URLs become `file:<absolute path>` so that every process
 * (server, worker, scripts, tests) opens the same file; PostgreSQL URLs are returned unchanged.
 */
export function resolveDatabaseUrl(url: string | undefined | null, cwd: string = process.cwd()): string {
  const raw = url?.trim() || DEFAULT_DATABASE_URL;
  if (databaseKind(raw) === "sqlite") return `file:${sqliteFilePath(raw, cwd)}`;
  return raw;
}

/** The URL with any password hidden, for logs and error messages. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
}
