import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  databaseKind,
  DatabaseUrlError,
  DEFAULT_DATABASE_URL,
  isPostgresUrl,
  isSqliteUrl,
  redactDatabaseUrl,
  resolveDatabaseUrl,
  sqliteFilePath,
} from "./database-url";

describe("database URLs", () => {
  it("default to ./data/app.db resolved against the working directory", () => {
    expect(DEFAULT_DATABASE_URL).toBe("file:./data/app.db");
    expect(resolveDatabaseUrl(undefined, "/srv/app")).toBe("file:/srv/app/data/app.db");
    expect(resolveDatabaseUrl("  ", "/srv/app")).toBe("file:/srv/app/data/app.db");
    expect(resolveDatabaseUrl(undefined)).toBe(`file:${path.join(process.cwd(), "data", "app.db")}`);
  });

  it("make file: paths absolute and leave PostgreSQL URLs alone", () => {
    expect(resolveDatabaseUrl("file:./x/y.db", "/srv/app")).toBe("file:/srv/app/x/y.db");
    expect(resolveDatabaseUrl("file:/var/lib/app.db", "/srv/app")).toBe("file:/var/lib/app.db");
    expect(resolveDatabaseUrl("file:///var/lib/app.db", "/srv/app")).toBe("file:/var/lib/app.db");
    expect(resolveDatabaseUrl("postgresql://u:p@db:5432/studio", "/srv/app")).toBe("postgresql://u:p@db:5432/studio");
  });

  it("give the SQLite file path without query parameters", () => {
    expect(sqliteFilePath("file:./app.db?connection_limit=1", "/w")).toBe("/w/app.db");
    expect(() => sqliteFilePath("file:", "/w")).toThrow(/names no file/);
    expect(() => sqliteFilePath("postgres://h/db")).toThrow(DatabaseUrlError);
  });

  it("tell SQLite from PostgreSQL and name the accepted forms otherwise", () => {
    expect([isSqliteUrl("file:a.db"), isPostgresUrl("file:a.db")]).toEqual([true, false]);
    expect([
      isSqliteUrl("postgres://h/db"),
      isPostgresUrl("postgres://h/db"),
      isPostgresUrl("postgresql://h/db"),
    ]).toEqual([false, true, true]);
    expect(databaseKind("file:a.db")).toBe("sqlite");
    expect(databaseKind("postgresql://h/db")).toBe("postgresql");
    expect(() => databaseKind("mysql://root:hunter2@h/db")).toThrow(
      'DATABASE_URL: unsupported URL "mysql://root:***@h/db"; use file:./data/app.db (SQLite) or postgres://user:pass@host:5432/db (PostgreSQL)',
    );
  });

  it("hide passwords in messages", () => {
    expect(redactDatabaseUrl("postgres://studio:s3cret@db:5432/x")).toBe("postgres://studio:***@db:5432/x");
    expect(redactDatabaseUrl("postgres://db:5432/x")).toBe("postgres://db:5432/x");
    expect(redactDatabaseUrl("file:/a/b.db")).toBe("file:/a/b.db");
  });
});
