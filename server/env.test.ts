import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./env";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({}, "/srv/app");
    expect(c.PORT).toBe(3000);
    expect(c.database).toEqual({ kind: "sqlite", url: `file:${path.join("/srv/app/data", "app.db")}`, file: path.join("/srv/app/data", "app.db") });
    expect(c.agentsDir).toBe("/srv/app/agents");
    expect(c.WATCH_DEFINITIONS).toBe(true);
    expect(c.DEFINITIONS_READONLY).toBe(false);
    expect(c.MAX_TOTAL_STEPS).toBe(250);
    expect(c.OPENAI_API_KEY).toBeUndefined();
  });

  it("keeps file bytes in the database by default; FILE_STORAGE=disk uses FILE_STORAGE_DIR or DATA_DIR/files", () => {
    expect(loadConfig({}, "/srv/app")).toMatchObject({ FILE_STORAGE: "database", fileStorageDir: null });
    expect(loadConfig({ FILE_STORAGE: "disk" }, "/srv/app")).toMatchObject({ FILE_STORAGE: "disk", fileStorageDir: "/srv/app/data/files" });
    expect(loadConfig({ FILE_STORAGE: "disk", FILE_STORAGE_DIR: "blobs" }, "/srv/app").fileStorageDir).toBe("/srv/app/blobs");
    expect(loadConfig({ FILE_STORAGE_DIR: "/var/blobs" }, "/srv/app")).toMatchObject({ FILE_STORAGE: "database", fileStorageDir: "/var/blobs" });
    expect(() => loadConfig({ FILE_STORAGE: "s3" }, "/srv/app")).toThrow(/FILE_STORAGE: must be 'database' or 'disk'/);
  });

  it("resolves relative SQLite URLs against the working directory and keeps PostgreSQL URLs", () => {
    expect(loadConfig({ DATABASE_URL: "file:./x/y.db" }, "/srv/app").database.url).toBe("file:/srv/app/x/y.db");
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@127.0.0.1:5432/db" }, "/").database).toEqual({ kind: "postgresql", url: "postgres://u:p@127.0.0.1:5432/db" });
  });

  it("names the variable and the expected value when one is invalid", () => {
    expect(() => loadConfig({ PORT: "http" }, "/")).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "http" }, "/")).toThrow(/PORT: expected an integer/);
    expect(() => loadConfig({ WATCH_DEFINITIONS: "maybe" }, "/")).toThrow(/WATCH_DEFINITIONS/);
    expect(() => loadConfig({ OPENAI_BASE_URL: "not a url" }, "/")).toThrow(/OPENAI_BASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" }, "/")).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" }, "/")).toThrow(/DATABASE_URL: unsupported URL/);
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, proxy.local" }, "/")).toThrow(/TRUSTED_PROXIES: "proxy.local" is not an IP address/);
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/33" }, "/")).toThrow(/TRUSTED_PROXIES/);
    expect(loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, ::1" }, "/").TRUSTED_PROXIES).toBe("10.0.0.0/8, ::1");
  });

  it("reads the proxy variables, the lower-case ones first, and checks they are URLs", () => {
    expect(loadConfig({}, "/").proxy).toEqual({ httpProxy: undefined, httpsProxy: undefined, noProxy: undefined });
    const c = loadConfig({ HTTP_PROXY: "http://upper:3128", http_proxy: "http://lower:3128", HTTPS_PROXY: "http://tls:3128", NO_PROXY: "localhost,.internal" }, "/");
    expect(c.proxy).toEqual({ httpProxy: "http://lower:3128", httpsProxy: "http://tls:3128", noProxy: "localhost,.internal" });
    expect(() => loadConfig({ HTTPS_PROXY: "proxy.example.com:3128" }, "/")).toThrow(/HTTPS_PROXY: must be a URL/);
  });

  it("treats empty strings as unset", () => {
    const c = loadConfig({ OPENAI_API_KEY: "", DATABASE_URL: "" }, "/a");
    expect(c.OPENAI_API_KEY).toBeUndefined();
    expect(c.database.url).toBe("file:/a/data/app.db");
  });
});
