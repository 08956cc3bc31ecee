/**
 * Publish → receive latency of the PostgreSQL event bus between two bus instances (each with its own connection, as
 * two processes would have), on a throwaway database. Prints figures, asserts nothing.
 *
 *   TEST_DATABASE_URL=postgresql://root@127.0.0.1:5432/postgres npx tsx bench/event-bus-pg.ts [events]
 *
 * Scenarios: persisted events one at a time (each waits for the previous one to arrive: the latency of one hop),
 * a burst of persisted events with a token delta after each (throughput; latency under a queue), and large persisted
 * events sent by reference (the listener reads the row from the log).
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { PgEventBus } from "@/server/db/event-bus/pg-event-bus";
import { SqlTestEventLog } from "@/server/db/event-bus/test-event-log";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "@/server/db/test-postgres";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";

const adminUrl = testPostgresAdminUrl();
if (!adminUrl) {
  console.error("set TEST_DATABASE_URL to a PostgreSQL database whose role may create databases");
  process.exit(2);
}
const n = Number(process.argv[2] ?? 500);
const now = () => performance.now();

const name = uniqueDatabaseName("busbench");
const url = await createDatabase(adminUrl, name);
const log = new SqlTestEventLog(url);
const buses: PgEventBus[] = [];
try {
  await log.createTables();
  const make = async () => {
    const b = new PgEventBus({ connectionString: url, catchUp: log.catchUp(), log: () => {} });
    await b.start();
    buses.push(b);
    return b;
  };
  const [a, b] = [await make(), await make()];
  console.log(`PostgreSQL event bus, ${n} events per scenario; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}, ${os.cpus().length} cores`);

  // Persist outside the timed part; the time measured is publish → delivery at the other instance.
  const prepare = async (threadId: string, count: number, content: (i: number) => string) => {
    await log.createThread(threadId);
    const out: ThreadEventEnvelope[] = [];
    for (let i = 0; i < count; i++) {
      out.push(await log.append(threadId, { type: "message.created", message: { id: `m${i}`, role: "assistant", content: content(i) } }));
    }
    return out;
  };

  {
    const t = randomUUID();
    const events = await prepare(t, n, (i) => `event ${i}`);
    const lat: number[] = [];
    let resolve: (() => void) | null = null;
    let sentAt = 0;
    b.subscribe(t, () => {
      lat.push(now() - sentAt);
      resolve?.();
    });
    for (const e of events) {
      const arrived = new Promise<void>((r) => (resolve = r));
      sentAt = now();
      a.publish(e);
      await arrived;
    }
    report("one at a time (small, inline)", lat);
  }

  {
    const t = randomUUID();
    const events = await prepare(t, n, (i) => `event ${i}`);
    const sent = new Map<string, number>();
    const lat: number[] = [];
    let done: () => void = () => {};
    const all = new Promise<void>((r) => (done = r));
    b.subscribe(t, (e) => {
      lat.push(now() - sent.get(`${e.persisted}:${e.seq}`)!);
      if (lat.length === n * 2) done();
    });
    const started = now();
    for (const e of events) {
      sent.set(`true:${e.seq}`, now());
      a.publish(e);
      sent.set(`false:${e.seq}`, now());
      a.publish({ threadId: t, seq: e.seq, persisted: false, at: e.at, event: { type: "token.delta", stepId: "s", side: "a", content: "tok " } });
    }
    await all;
    const ms = now() - started;
    report(`burst of ${n * 2} (persisted + delta), ${Math.round((n * 2 * 1000) / ms)} events/s`, lat);
  }

  {
    const t = randomUUID();
    const count = Math.min(n, 200);
    const events = await prepare(t, count, (i) => `${i} `.padEnd(20_000, "x"));
    const lat: number[] = [];
    let resolve: (() => void) | null = null;
    let sentAt = 0;
    b.subscribe(t, () => {
      lat.push(now() - sentAt);
      resolve?.();
    });
    for (const e of events) {
      const arrived = new Promise<void>((r) => (resolve = r));
      sentAt = now();
      a.publish(e);
      await arrived;
    }
    report("one at a time (20 KB, by reference + log read)", lat);
  }
} finally {
  for (const bus of buses) await bus.close();
  await log.end();
  await dropDatabase(adminUrl, name);
}

function report(label: string, ms: number[]): void {
  const s = [...ms].sort((x, y) => x - y);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(2);
  console.log(`${label.padEnd(60)} p50 ${q(0.5)} ms  p95 ${q(0.95)} ms  p99 ${q(0.99)} ms  max ${s.at(-1)!.toFixed(2)} ms  (n=${s.length})`);
}
