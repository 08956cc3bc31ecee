import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseKind } from "@/server/db/test-database";
import { serveHealth } from "@/server/worker/health-server";
import { startTestApp, type TestApp } from "../helpers/test-app";

/** `/api/health` per process, and the same report served on its own port for worker processes. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RUNTIME_WORKERS: "0", OPENAI_API_KEY: "sk-health-test-secret", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-health-test-secret" } });
});
afterAll(async () => {
  await t?.close();
});

const getJson = async (url: string) => {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as any };
};

describe("GET /api/health", () => {
  it("reports role, database latency, queue depth, workers seen and the event bus, without secrets", async () => {
    // On PostgreSQL a claimed item with a thread takes that thread's lease, which is how its worker is seen there.
    const threadId = testDatabaseKind() === "sqlite" ? undefined : randomUUID();
    await t.app.persistence.work.enqueue({ kind: "effect", threadId, payload: { n: 1 } });
    await t.app.persistence.work.enqueue({ kind: "effect", payload: { n: 2 }, runAt: new Date(Date.now() + 3_600_000) });
    await t.app.persistence.work.enqueue({ kind: "effect", payload: { n: 3 } });
    const claimed = await t.app.persistence.work.claim("other-host:4242", 1, 60_000);
    expect(claimed).toHaveLength(1);

    const { status, body, text } = await getJson(`${t.url}/api/health`);
    expect(status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.role).toBe("app");
    expect(body.process).toMatchObject({ id: t.app.workerId, pid: process.pid, runtimeWorkers: 0 });
    expect(body.database).toMatchObject({ ok: true, kind: testDatabaseKind() });
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(body.queue).toEqual(
      testDatabaseKind() === "sqlite"
        ? { source: "work-items", pending: 2, due: 1, claimed: 1 }
        : { source: "pg-boss", queue: "thread-work", pending: 2, due: 1, retry: 0, claimed: 1 },
    );
    expect(body.workers.count).toBe(1);
    expect(body.workers.seen[0]).toMatchObject({ id: "other-host:4242", claimed: 1 });
    expect(body.eventBus).toMatchObject({ ok: true, kind: testDatabaseKind() === "sqlite" ? "memory" : "postgresql" });
    expect(text).not.toContain("sk-health-test-secret");
    expect(text).not.toContain("pw-health-test-secret");
    expect(text).not.toContain("11".repeat(32));
  });

  it("shows the queue and workers a worker implementation reports instead", async () => {
    t.app.health.queue = async () => ({ source: "pg-boss", pending: 7, claimed: 2, queues: { step: 5, deliver: 2 } });
    t.app.health.workers = async () => [{ id: "w1:1", lastSeenAt: new Date(0).toISOString(), claimed: 2 }];
    try {
      const { body } = await getJson(`${t.url}/api/health`);
      expect(body.queue).toEqual({ source: "pg-boss", pending: 7, claimed: 2, queues: { step: 5, deliver: 2 } });
      expect(body.workers.seen).toEqual([{ id: "w1:1", lastSeenAt: "1970-01-01T00:00:00.000Z", claimed: 2 }]);
      t.app.health.queue = async () => {
        throw new Error("connect failed: postgres://boss:hunter2@db:5432/app");
      };
      const failed = await getJson(`${t.url}/api/health`);
      expect(failed.body.queue.error).toContain("postgres://boss:***@db:5432/app");
      expect(failed.text).not.toContain("hunter2");
    } finally {
      t.app.health = {};
    }
  });
});

describe("serveHealth (worker processes)", () => {
  it("serves the same report on its own port, and 404 elsewhere", async () => {
    const server = await serveHealth(t.app, { port: 0, host: "127.0.0.1" });
    try {
      const { status, body } = await getJson(`${server.url}/health`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: "ok", role: "app", database: { ok: true } });
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      expect((await fetch(`${server.url}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
