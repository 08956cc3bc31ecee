import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serveFetchHandler } from "@/server/api/node-http";
import { createRestHandler } from "@/server/api/rest/routes";
import { createTestDatabaseUrl, testDatabaseKind } from "@/server/db/test-database";
import { loadConfig } from "@/server/env";
import { createApp, type RunningApp } from "@/server/worker/app";

export const projectRoot = path.resolve(import.meta.dirname, "../..");

export interface TestApp {
  app: RunningApp;
  /** Base URL of the REST API served over real HTTP on 127.0.0.1. */
  url: string;
  dataDir: string;
  agentsDir: string;
  /** The app's database (a SQLite file in `dataDir`, or a throwaway PostgreSQL database when TEST_DATABASE_URL is set). */
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * A real app for integration tests: its own migrated database (a SQLite file in a temp folder, or a fresh PostgreSQL
 * database when TEST_DATABASE_URL is set), its own copy of the definition files (or the folder given), and the REST
 * API served over HTTP. `shareDatabaseWith` gives it another app's data folder and database (two runtimes on one
 * database, e.g. an API-only app with `RUNTIME_WORKERS=0` and a worker app); that app deletes them.
 */
export async function startTestApp(
  opts: { agentsDir?: string; agentsSource?: string; env?: Record<string, string>; shareDatabaseWith?: TestApp } = {},
): Promise<TestApp> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-test-"));
  const shared = opts.shareDatabaseWith;
  const dataDir = shared?.dataDir ?? path.join(tmp, "data");
  const agentsDir = opts.agentsDir ?? path.join(tmp, "agents");
  if (!opts.agentsDir) fs.cpSync(opts.agentsSource ?? path.join(projectRoot, "agents"), agentsDir, { recursive: true });
  // SQLite: the app migrates data/app.db itself. PostgreSQL: a copy of the run's migrated template.
  const database = shared || testDatabaseKind() === "sqlite" ? null : await createTestDatabaseUrl("app");
  const databaseUrl = shared?.databaseUrl ?? database?.url;
  const config = loadConfig(
    {
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      AGENTS_DIR: agentsDir,
      WATCH_DEFINITIONS: "1",
      SECRETS_KEY: "11".repeat(32),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      // TEST_RUNTIME_THREAD=1: the tests' apps run their activations on a runtime thread (RUNTIME_THREAD, SQLite).
      ...(process.env.TEST_RUNTIME_THREAD ? { RUNTIME_THREAD: process.env.TEST_RUNTIME_THREAD } : {}),
      ...opts.env,
    },
    projectRoot,
  );
  const app = await createApp({ config, projectRoot });
  const server = await serveFetchHandler(createRestHandler(async () => app), { rest: true });
  return {
    app,
    url: server.url,
    dataDir,
    agentsDir,
    databaseUrl: config.database.url,
    async close() {
      await server.close();
      await app.close();
      await database?.drop();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Poll until `check` returns a truthy value (file watching and reloads are asynchronous). */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const fixtureAgents = path.join(projectRoot, "tests/fixtures/agents");

let bearer: string | null = null;
/** Send this token with every `api()` call (for apps with accounts). */
export function useToken(token: string | null): void {
  bearer = token;
}

/** JSON over HTTP with the status, for assertions. */
export async function api(base: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Poll a thread until its status is one of `statuses` and no activation is running. */
export async function waitForThread(base: string, id: string, statuses = ["idle", "terminated"], timeoutMs = 15_000): Promise<any> {
  return waitFor(async () => {
    const { body } = await api(base, "GET", `/api/threads/${id}`);
    return statuses.includes(body.thread?.status) ? body.thread : undefined;
  }, timeoutMs);
}
