import path from "node:path";
import { describe, expect, it } from "vitest";
import { databaseTarget, DatabaseUrlError, DEFAULT_DATABASE_URL, postgresUrlOrUndefined, redactDatabaseUrl } from "./database-url";

describe("database URLs", () => {
  it("default to ./data/app.db resolved against the working directory", () => {
    expect(DEFAULT_DATABASE_URL).toBe("file:./data/app.db");
    expect(databaseTarget(undefined, "/srv/app")).toEqual({ kind: "sqlite", url: "file:/srv/app/data/app.db", file: "/srv/app/data/app.db" });
    expect(databaseTarget("  ", "/srv/app").url).toBe("file:/srv/app/data/app.db");
    expect(databaseTarget(undefined).url).toBe(`file:${path.join(process.cwd(), "data", "app.db")}`);
  });

  it("make file: paths absolute, without query parameters", () => {
    expect(databaseTarget("file:./x/y.db", "/srv/app").url).toBe("file:/srv/app/x/y.db");
    expect(databaseTarget("file:/var/lib/app.db", "/srv/app").url).toBe("file:/var/lib/app.db");
    expect(databaseTarget("file:///var/lib/app.db", "/srv/app").url).toBe("file:/var/lib/app.db");
    expect(databaseTarget("file:./app.db?connection_limit=1", "/w")).toEqual({ kind: "sqlite", url: "file:/w/app.db", file: "/w/app.db" });
    expect(() => databaseTarget("file:", "/w")).toThrow(/names no file/);
  });

  it("leave PostgreSQL URLs alone and name the accepted forms otherwise", () => {
    expect(databaseTarget("postgresql://u:p@db:5432/studio", "/srv/app")).toEqual({ kind: "postgresql", url: "postgresql://u:p@db:5432/studio" });
    expect(databaseTarget("postgres://h/db").kind).toBe("postgresql");
    expect(() => databaseTarget("mysql://root:hunter2@h/db")).toThrow(DatabaseUrlError);
    expect(() => databaseTarget("mysql://root:hunter2@h/db")).toThrow(
      'DATABASE_URL: unsupported URL "mysql://root:***@h/db"; use file:./data/app.db (SQLite) or postgres://user:pass@host:5432/db (PostgreSQL)',
    );
  });

  it("pick PostgreSQL URLs out of optional settings", () => {
    expect(postgresUrlOrUndefined(" postgresql://h/db ")).toBe("postgresql://h/db");
    expect([postgresUrlOrUndefined("file:a.db"), postgresUrlOrUndefined(""), postgresUrlOrUndefined(undefined)]).toEqual([undefined, undefined, undefined]);
  });

  it("hide passwords in messages", () => {
    expect(redactDatabaseUrl("postgres://studio:s3cret@db:5432/x")).toBe("postgres://studio:***@db:5432/x");
    expect(redactDatabaseUrl("postgres://db:5432/x")).toBe("postgres://db:5432/x");
    expect(redactDatabaseUrl("file:/a/b.db")).toBe("file:/a/b.db");
  });
});
