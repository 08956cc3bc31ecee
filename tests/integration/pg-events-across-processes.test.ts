import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName, withAdmin } from "@/server/db/test-postgres";
import type { PgEventBus } from "@/server/db/event-bus/pg-event-bus";
import { freePort } from "../helpers/server-process";
import { readSse, type SseEvent } from "../helpers/sse";
import { appRouter } from "@/server/api/root";
import { createCallerFactory } from "@/server/api/trpc";
import { api, fixtureAgents, projectRoot, startTestApp, waitFor, waitForThread, type TestApp } from "../helpers/test-app";

/**
 * The scale-out shape on a real PostgreSQL server: an app process that serves the API with RUNTIME_WORKERS=0 (this
 * test process) and a worker process (`scripts/worker.ts`, a child) that runs the thread. Every event the worker
 * writes reaches the SSE client connected to the app once and in order, token deltas included, also across a lost
 * bus connection. Runs when TEST_DATABASE_URL names a PostgreSQL database whose role may create databases.
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("events across processes on PostgreSQL", () => {
  let fake: FakeLlm;
  let dbName = "";
  let t: TestApp;
  let worker: ChildProcess;
  let workerOutput = "";
  let workerHealth: string;

  beforeAll(async () => {
    fake = await startFakeLlm();
    dbName = uniqueDatabaseName("events");
    const url = await createDatabase(adminUrl!, dbName);
    const env = { DATABASE_URL: url, OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" };
    t = await startTestApp({ agentsSource: fixtureAgents, env: { ...env, RUNTIME_WORKERS: "0" } });
    const port = await freePort();
    workerHealth = `http://127.0.0.1:${port}/health`;
    worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      cwd: projectRoot,
      env: {
        ...process.env,
        ...env,
        NODE_ENV: "test",
        AGENTS_DIR: t.agentsDir,
        DATA_DIR: t.dataDir,
        WATCH_DEFINITIONS: "0",
        SECRETS_KEY: "11".repeat(32),
        WORKER_HEALTH_PORT: String(port),
        HOST: "127.0.0.1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (d) => (workerOutput += d));
    worker.stderr!.on("data", (d) => (workerOutput += d));
    await waitFor(async () => {
      if (worker.exitCode !== null) throw new Error(`worker exited (${worker.exitCode}):\n${workerOutput}`);
      return fetch(workerHealth).then((r) => r.ok, () => false);
    }, 60_000);
  }, 120_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker.once("exit", r));
      worker.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (worker.exitCode === null) worker.kill("SIGKILL");
    }
    await t?.close();
    await fake?.close();
    if (dbName) await dropDatabase(adminUrl!, dbName);
  });

  /** Collect a server-side subscription's payloads (tracked ones come as `[id, data]`) until `until` holds. */
  async function collect(iterable: AsyncIterable<unknown>, until: (seen: Record<string, any>[]) => boolean): Promise<Record<string, any>[]> {
    const seen: Record<string, any>[] = [];
    const it = iterable[Symbol.asyncIterator]();
    const deadline = Date.now() + 30_000;
    try {
      while (!until(seen)) {
        const r = await Promise.race([
          it.next(),
          new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`timeout; saw ${seen.map((e) => e.type).join(",")}`)), deadline - Date.now())),
        ]);
        if (r.done) break;
        seen.push(Array.isArray(r.value) ? r.value[1] : (r.value as Record<string, any>));
      }
    } finally {
      void it.return?.(undefined);
    }
    return seen;
  }

  /** Run one user turn on the worker while an SSE client on the app reads the stream from `after`. */
  async function turn(threadId: string, text: string, after: number, midway?: () => Promise<void>): Promise<SseEvent[]> {
    const reading = readSse(`${t.url}/api/threads/${threadId}/stream`, {
      lastEventId: after,
      until: (evs) => {
        const answered = evs.findIndex((e) => e.data.type === "message.created" && e.data.message?.role === "assistant");
        return answered >= 0 && evs.slice(answered).some((e) => e.data.type === "thread.status" && e.data.status === "idle");
      },
      timeoutMs: 30_000,
    });
    await new Promise((r) => setTimeout(r, 200)); // the client is connected and tailing
    expect((await api(t.url, "POST", `/api/threads/${threadId}/messages`, { content: text })).status).toBe(202);
    await midway?.();
    const events = await reading;
    await waitForThread(t.url, threadId);
    return events;
  }

  /** Every persisted event of the log after `after`, once, in order; the deltas add up to the streamed answer. */
  async function expectExact(threadId: string, events: SseEvent[], after: number, answer: string) {
    const persisted = events.filter((e) => e.id !== null);
    const log = await t.app.persistence.events.after(threadId, after, 1000);
    const lastSeen = persisted.at(-1)!.id!;
    expect(persisted.map((e) => e.id)).toEqual(log.filter((e) => e.seq <= lastSeen).map((e) => e.seq));
    expect(persisted.map((e) => e.data.type)).toEqual(log.filter((e) => e.seq <= lastSeen).map((e) => e.event.type));
    const deltas = events.filter((e) => e.data.type === "token.delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.data.content ?? "").join("")).toBe(answer);
  }

  it("an SSE client on the app sees every event the worker writes once, in order, with the token deltas", async () => {
    const answer = "Streaming from another process, word by word, to the app's subscribers.";
    fake.setScript([{ respond: { content: answer } }]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    const events = await turn(id, "hello", 0);
    expect(fake.getRequests()).toHaveLength(1);
    await expectExact(id, events, 0, answer);
    expect(events.some((e) => e.data.type === "message.created" && e.data.message?.content === answer)).toBe(true);
  });

  it("keeps the stream exact when the app's bus connection is killed during a turn", async () => {
    const answer = "Second answer after the app's event bus lost its connection and caught up from the log.";
    fake.setScript([{ delay_ms: 400, respond: { content: answer } }]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    const bus = t.app.bus as PgEventBus;
    const before = bus.status().connection!.reconnects;
    const events = await turn(id, "again", 0, async () => {
      const pid = await bus.backendPid();
      await withAdmin(adminUrl!, (c) => c.query("SELECT pg_terminate_backend($1)", [pid]));
    });
    expect(bus.status().connection!.reconnects).toBeGreaterThan(before);
    const persisted = events.filter((e) => e.id !== null);
    const log = await t.app.persistence.events.after(id, 0, 1000);
    expect(persisted.map((e) => e.id)).toEqual(log.slice(0, persisted.length).map((e) => e.seq));
    expect(events.some((e) => e.data.type === "message.created" && e.data.message?.content === answer)).toBe(true);
  });

  it("a tRPC subscriber on the app gets the worker's events once and in order; a late one the partial reply first", async () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
    fake.setScript([{ token_delay_ms: 40, respond: { content: words } }]);
    const caller = createCallerFactory(appRouter)({
      app: t.app,
      caller: { userId: null, username: null, role: "admin" as const, via: "local" as const },
    });
    const created = await caller.threads.create({ agent_id: "chat" });
    const answered = (seen: Record<string, any>[]) => seen.some((e) => e.type === "message.created" && e.message?.role === "assistant");
    const whole = collect(await caller.chat.events({ threadId: created.id, lastEventId: "0" }), answered);
    await caller.threads.post({ threadId: created.id, content: "go" });
    await waitFor(async () => (await caller.chat.snapshot({ threadId: created.id })).lastEventSeq >= 6 && fake.getRequests().length >= 1);
    await new Promise((r) => setTimeout(r, 400)); // part of the reply has streamed through the worker
    const snap = await caller.chat.snapshot({ threadId: created.id });
    const late = await collect(await caller.chat.events({ threadId: created.id, lastEventId: String(snap.lastEventSeq) }), answered);
    const events = await whole;

    const persisted = events.filter((e) => e.persisted);
    const log = await t.app.persistence.events.after(created.id, 0, 1000);
    expect(persisted.map((e) => e.seq)).toEqual(log.slice(0, persisted.length).map((e) => e.seq));
    const deltas = events.filter((e) => e.type === "token.delta").map((e) => e.content ?? "");
    expect(deltas.join("")).toBe(words);
    const partial = late.find((e) => e.type === "token.snapshot");
    expect(partial, "the app's in-flight view, fed by the worker's deltas").toBeTruthy();
    const rest = late.slice(late.indexOf(partial!) + 1).filter((e) => e.type === "token.delta").map((e) => e.content ?? "");
    expect(partial!.content + rest.join("")).toBe(words);
    await waitForThread(t.url, created.id);
  });

  it("health: the app reports role app and the worker seen; the worker serves its own report", async () => {
    const app = (await api(t.url, "GET", "/api/health")).body;
    expect(app).toMatchObject({ status: "ok", role: "app", database: { ok: true, kind: "postgresql" } });
    expect(app.eventBus).toMatchObject({ ok: true, kind: "postgresql", listening: true, connection: { connected: true } });
    expect(app.queue).toMatchObject({ source: "pg-boss", pending: 0, claimed: 0 });
    expect(app.workers.seen.map((w: { id: string }) => w.id)).toContain(`${os.hostname()}:${worker.pid}`);
    const own = await (await fetch(workerHealth)).json();
    expect(own).toMatchObject({ status: "ok", role: "worker", process: { pid: worker.pid }, eventBus: { ok: true, listening: false } });
    expect(JSON.stringify([app, own])).not.toContain(dbName);
  });
});
