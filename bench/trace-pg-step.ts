/**
 * Diagnostic: the PostgreSQL statements of a few steps of the scenario-1 loop, in order (`npx tsx bench/trace-pg-step.ts`;
 * BENCH_POSTGRES_URL, a role that may create databases). Prints each statement's text (shortened) with its connection.
 */
import { createRequire } from "node:module";
import { databaseTarget } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { createThread, loopRules, postMessage, root, startBenchApp, startFakeServer, watchThread } from "./harness";
import { admin, adminUrl } from "./worker-scale";

const log: string[] = [];
let on = false;
let connections = 0;
const pg = createRequire(import.meta.url)("pg") as { Client: { prototype: Record<string, (...a: unknown[]) => unknown> } };
const query = pg.Client.prototype.query!;
const ids = new WeakMap<object, number>();
pg.Client.prototype.query = function (this: object, q: unknown, ...rest: unknown[]) {
  const text = typeof q === "string" ? q : (q as { text?: string; name?: string } | null)?.text;
  if (on && typeof text === "string") {
    if (!ids.has(this)) ids.set(this, ++connections);
    log.push(`[${ids.get(this)}] ${text.replace(/\s+/g, " ").slice(0, 160)}`);
  }
  return query.call(this, q, ...rest);
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
    try {
      for (let i = 0; i < Number(process.env.TRACE_RUNS ?? 2); i++) {
        const id = await createThread(b.url, "looper");
        const w = watchThread(b.app, id);
        on = i === 1 && !process.env.TRACE_QUIET;
        await postMessage(b.url, id, "s1 start");
        await w.done;
        on = false;
      }
    } finally {
      await b.close();
    }
  } finally {
    await fake.close();
    await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
  }
  console.log(log.join("\n"));
  console.log(`${log.length} statements for 6 steps`);
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
