import fs from "node:fs";
import path from "node:path";

/**
 * prisma/postgresql/schema.prisma is a generated copy of prisma/schema.prisma: the same models, with the
 * `postgresql` provider and its own client output (server/db/generated/prisma-postgresql). It is committed so that
 * `prisma generate` and the PostgreSQL migrations can read it; `npm run db:schema:postgres` rewrites it, and a test
 * fails when the committed copy differs from what this function derives.
 */

export const SQLITE_SCHEMA = "prisma/schema.prisma";
export const POSTGRES_SCHEMA = "prisma/postgresql/schema.prisma";

const HEADER =
  "// GENERATED from prisma/schema.prisma by `npm run db:schema:postgres`: edit that file, never this one.\n" +
  "// Only the datasource provider, the client output and the JSON column type (`json`, not `jsonb`) differ.\n\n";

function replaceOnce(text: string, from: RegExp, to: string, what: string): string {
  const matches = text.match(new RegExp(from.source, "g"))?.length ?? 0;
  if (matches !== 1) throw new Error(`${SQLITE_SCHEMA}: expected exactly one ${what}, found ${matches}`);
  return text.replace(from, to);
}

/** The PostgreSQL schema text for the SQLite schema text. */
export function postgresSchemaFrom(sqliteSchema: string): string {
  let out = replaceOnce(sqliteSchema, /provider = "sqlite"/, 'provider = "postgresql"', 'provider = "sqlite"');
  out = replaceOnce(
    out,
    /output {3}= "\.\.\/server\/db\/generated\/prisma"/,
    'output   = "../../server/db/generated/prisma-postgresql"',
    "client output",
  );
  // JSON columns are `json` (the text as written) rather than Prisma's default `jsonb`, which reorders object keys:
  // stored JSON reads back with its keys in the order written, as on SQLite (an event replayed from the log equals the
  // one delivered live, tool arguments and request bodies show as sent).
  out = out.replace(/^(\s+\w+\s+Json\??)(?=\s|$)/gm, "$1 @db.Json");
  return HEADER + out;
}

/** Write prisma/postgresql/schema.prisma from prisma/schema.prisma; true when the file changed. */
export function writePostgresSchema(projectRoot: string): boolean {
  const next = postgresSchemaFrom(fs.readFileSync(path.join(projectRoot, SQLITE_SCHEMA), "utf8"));
  const target = path.join(projectRoot, POSTGRES_SCHEMA);
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : null;
  if (current === next) return false;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, next);
  return true;
}
