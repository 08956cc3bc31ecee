import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./env";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({}, "/srv/app");
    expect(c.PORT).toBe(3000);
    expect(c.databaseUrl).toBe(`file:${path.join("/srv/app/data", "app.db")}`);
    expect(c.agentsDir).toBe("/srv/app/agents");
    expect(c.WATCH_DEFINITIONS).toBe(true);
    expect(c.DEFINITIONS_READONLY).toBe(false);
    expect(c.MAX_TOTAL_STEPS).toBe(250);
    expect(c.OPENAI_API_KEY).toBeUndefined();
  });

  it("resolves relative SQLite URLs against the working directory and keeps PostgreSQL URLs", () => {
    expect(loadConfig({ DATABASE_URL: "file:./x/y.db" }, "/srv/app").databaseUrl).toBe("file:/srv/app/x/y.db");
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@127.0.0.1:5432/db" }, "/").databaseUrl).toBe("postgres://u:p@127.0.0.1:5432/db");
  });

  it("names the variable and the expected value when one is invalid", () => {
    expect(() => loadConfig({ PORT: "http" }, "/")).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "http" }, "/")).toThrow(/PORT: expected an integer/);
    expect(() => loadConfig({ WATCH_DEFINITIONS: "maybe" }, "/")).toThrow(/WATCH_DEFINITIONS/);
    expect(() => loadConfig({ OPENAI_BASE_URL: "not a url" }, "/")).toThrow(/OPENAI_BASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" }, "/")).toThrow(/DATABASE_URL: unsupported URL/);
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, proxy.local" }, "/")).toThrow(/TRUSTED_PROXIES: "proxy.local" is not an IP address/);
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/33" }, "/")).toThrow(/TRUSTED_PROXIES/);
    expect(loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, ::1" }, "/").TRUSTED_PROXIES).toBe("10.0.0.0/8, ::1");
  });

  it("treats empty strings as unset", () => {
    const c = loadConfig({ OPENAI_API_KEY: "", DATABASE_URL: "" }, "/a");
    expect(c.OPENAI_API_KEY).toBeUndefined();
    expect(c.databaseUrl).toBe("file:/a/data/app.db");
  });
});
