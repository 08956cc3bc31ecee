import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
let tmp: string;

function cli(args: string[], env: Record<string, string> = {}) {
  const started = Date.now();
  const r = spawnSync(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "scripts/migrate.ts"), ...args], {
    cwd: tmp,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: "", DATA_DIR: "", SCHEMA: "", MIGRATIONS_DIR: "", ...env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, ms: Date.now() - started };
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-cli-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("scripts/migrate.ts", () => {
  it("deploys to ./data/app.db relative to the working directory by default, then has nothing to apply", () => {
    const first = cli(["deploy"]);
    expect(first.err).toBe("");
    expect(first.out).toMatch(/^Applied \d{14}_init(, \d{14}_\w+)* in \d+ ms\.\n$/);
    expect(first.code).toBe(0);
    expect(fs.existsSync(path.join(tmp, "data", "app.db"))).toBe(true);

    const second = cli(["deploy"]);
    expect(second.out).toMatch(/^No pending migrations \(\d+ ms\)\.\n$/);
    expect(second.code).toBe(0);
  });

  it("status: exit 0 when up to date, 1 with pending migrations (DATA_DIR and DATABASE_URL respected)", () => {
    expect(cli(["status"])).toMatchObject({ code: 0, out: "Database schema is up to date.\n" });
    const other = cli(["status"], { DATA_DIR: path.join(tmp, "elsewhere") });
    expect(other.code).toBe(1);
    expect(other.out).toContain("The database has never been migrated.");
    const json = cli(["status", "--json"], { DATABASE_URL: `file:${path.join(tmp, "none.db")}` });
    expect(JSON.parse(json.out)).toMatchObject({ hasMigrationsTable: false });
  });

  it("diff: the committed migrations match the schema", () => {
    expect(cli(["diff"])).toMatchObject({ code: 0, out: "No schema changes.\n" });
  });

  it("create writes a migration for a schema change (SCHEMA and MIGRATIONS_DIR overrides)", () => {
    const migrations = path.join(tmp, "m");
    fs.cpSync(path.join(root, "prisma/migrations"), migrations, { recursive: true });
    const schema = path.join(tmp, "schema.prisma");
    const text = fs.readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");
    fs.writeFileSync(schema, `${text}\nmodel Note {\n  id String @id\n}\n`);
    const r = cli(["create", "add note"], { SCHEMA: "schema.prisma", MIGRATIONS_DIR: "m" });
    expect(r.err).toBe("");
    const written = /^Wrote (m\/\d{14}_add_note\/migration\.sql)\./.exec(r.out)?.[1];
    expect(written).toBeDefined();
    expect(fs.readFileSync(path.join(tmp, written!), "utf8")).toContain('CREATE TABLE "Note"');
    expect(cli(["create", "again"], { SCHEMA: "schema.prisma", MIGRATIONS_DIR: "m" }).out).toMatch(
      /^No schema changes/,
    );
  });

  it("explains its usage and exits non-zero on a bad command", () => {
    expect(cli(["frobnicate"])).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown command "frobnicate"'),
    });
    expect(cli(["create"])).toMatchObject({ code: 2, err: expect.stringContaining("create needs a name") });
    const bad = cli(["deploy"], { DATABASE_URL: "mysql://h/db" });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("DATABASE_URL: unsupported URL");
  });
});
