/**
 * Diagnostic: the PostgreSQL statements of a few steps of the scenario-1 loop, in order (`npx tsx bench/trace-pg-step.ts`;
 * BENCH_POSTGRES_URL, a role that may create databases). Prints each statement's text (shortened) with its connection.
 * With TRACE_RUNS=N TRACE_STEPS=K TRACE_QUIET=1 it runs N loops of K steps instead and prints the CPU per step of this
 * process and of the PostgreSQL backends serving its database (from /proc, on the same machine), after the first loop.
 * Each line starts with the ms since the traced loop's message was posted; TRACE_AT=K traces the K-th loop (default
 * the second: with TRACE_RUNS=12 TRACE_AT=11 the code is warm).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { databaseTarget } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { createThread, loopRules, postMessage, root, startBenchApp, startFakeServer, watchThread } from "./harness";
import { installSqlCounter, pgSocketWrites, pgWriteHook, resetSqlCounts } from "./sql-counter";
import { admin, adminUrl } from "./worker-scale";

const log: string[] = [];
let on = false;
let connections = 0;
/** When the traced run's message was posted: each line carries the ms since then. */
let t0 = 0;
const at = () => (performance.now() - t0).toFixed(2).padStart(7);
const pg = createRequire(import.meta.url)("pg") as { Client: { prototype: Record<string, (...a: unknown[]) => unknown> } };
const query = pg.Client.prototype.query!;
const ids = new WeakMap<object, number>();
pg.Client.prototype.query = function (this: object, q: unknown, ...rest: unknown[]) {
  const text = typeof q === "string" ? q : (q as { text?: string; name?: string } | null)?.text;
  if (on && typeof text === "string") {
    if (!ids.has(this)) ids.set(this, ++connections);
    log.push(`${at()} [${ids.get(this)}] ${text.replace(/\s+/g, " ").slice(0, 160)}`);
  }
  return query.call(this, q, ...rest);
};
// Each socket write of a client (a round trip's request): a line of its own in the trace.
installSqlCounter();
pgWriteHook.on = (client) => {
  if (on) log.push(`${at()} [${ids.get(client) ?? "?"}] ---- write`);
};

async function main() {
  const server = adminUrl()!;
  const name = `studio_pghot_trace_${process.pid}`;
  const url = new URL(server);
  url.pathname = `/${name}`;
  await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(server, `CREATE DATABASE "${name}"`);
  const fake = await startFakeServer();
  try {
    await migrateDatabase(databaseTarget(url.toString()), { projectRoot: root });
    await fake.setScript(loopRules("s1", Number(process.env.TRACE_STEPS ?? 6)));
    const b = await startBenchApp(fake.url, { DATABASE_URL: url.toString() });
    const runs = Number(process.env.TRACE_RUNS ?? 2);
    const steps = Number(process.env.TRACE_STEPS ?? 6);
    let server0 = new Map<number, number>();
    let self0 = process.cpuUsage();
    try {
      for (let i = 0; i < runs; i++) {
        if (i === 1) {
          server0 = await backendCpu(b.app.prisma, name);
          self0 = process.cpuUsage();
        }
        const id = await createThread(b.url, "looper");
        const w = watchThread(b.app, id);
        on = i === Number(process.env.TRACE_AT ?? 1) && !process.env.TRACE_QUIET;
        if (i === 1) resetSqlCounts();
        t0 = performance.now();
        await postMessage(b.url, id, "s1 start");
        await w.done;
        on = false;
      }
      const server1 = await backendCpu(b.app.prisma, name);
      const self = process.cpuUsage(self0);
      let serverMs = 0;
      for (const [pid, ms] of server1) serverMs += ms - (server0.get(pid) ?? 0);
      const measured = (runs - 1) * steps;
      if (measured > 0) {
        console.log(`process CPU per step: ${((self.user + self.system) / 1000 / measured).toFixed(2)} ms`);
        console.log(`PostgreSQL backends' CPU per step: ${(serverMs / measured).toFixed(2)} ms (${server1.size} backends)`);
        console.log(`socket writes (round trips) per step: ${(pgSocketWrites() / measured).toFixed(2)}`);
      }
    } finally {
      await b.close();
    }
  } finally {
    await fake.close();
    await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
  }
  console.log(log.join("\n"));
  if (log.length) console.log(`${log.length} statements for ${process.env.TRACE_STEPS ?? 6} steps`);
}
/** CPU ms so far of each PostgreSQL backend connected to the database (utime + stime from /proc; 100 ticks/s). */
async function backendCpu(prisma: { $queryRawUnsafe<T>(q: string, ...a: unknown[]): Promise<T> }, db: string): Promise<Map<number, number>> {
  const rows = await prisma.$queryRawUnsafe<{ pid: number }[]>(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, db);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      out.set(pid, (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // not on this machine, or gone
    }
  }
  return out;
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
