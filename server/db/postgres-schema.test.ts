import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrationPaths } from "./migrate";
import { loadMigrations } from "./migrations-folder";
import { POSTGRES_SCHEMA, postgresSchemaFrom, SQLITE_SCHEMA } from "./postgres-schema";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const read = (p: string) => fs.readFileSync(path.join(projectRoot, p), "utf8");

describe("the PostgreSQL copy of the schema", () => {
  it("is prisma/schema.prisma with only the provider and client output changed (else: npm run db:schema:postgres)", () => {
    expect(read(POSTGRES_SCHEMA)).toBe(postgresSchemaFrom(read(SQLITE_SCHEMA)));
  });

  it("differs from the SQLite schema in exactly the header, the provider, the output and the JSON column types", () => {
    const pg = postgresSchemaFrom(read(SQLITE_SCHEMA)).split("\n");
    const sqlite = read(SQLITE_SCHEMA).split("\n");
    const body = pg.slice(pg.length - sqlite.length);
    const changed = body.map((line, i) => [line, sqlite[i]!] as const).filter(([line, was]) => line !== was);
    const jsonColumns = changed.filter(([line, was]) => /^\s+\w+\s+Json\??(\s|$)/.test(was) && line === was.replace(/(Json\??)/, "$1 @db.Json"));
    expect(jsonColumns.length).toBeGreaterThan(10);
    expect(changed.filter((c) => !jsonColumns.includes(c)).map(([line]) => line)).toEqual([
      '  output   = "../../server/db/generated/prisma-postgresql"',
      '  provider = "postgresql"',
    ]);
    // Every JSON column of the SQLite schema is `json` on PostgreSQL (no `jsonb`: it reorders object keys).
    expect(jsonColumns.length).toBe(sqlite.filter((l) => /^\s+\w+\s+Json\??(\s|$)/.test(l)).length);
  });

  it("has committed PostgreSQL migrations with a postgresql lockfile", () => {
    const { migrationsDir } = migrationPaths("postgresql", projectRoot);
    const list = loadMigrations(migrationsDir);
    expect(list.lockfile.content).toContain('provider = "postgresql"');
    expect(list.migrationDirectories.length).toBeGreaterThan(0);
  });

  it("refuses a schema whose provider line cannot be found", () => {
    expect(() => postgresSchemaFrom('datasource db {\n  provider = "mysql"\n}')).toThrow(/provider = "sqlite"/);
  });
});
