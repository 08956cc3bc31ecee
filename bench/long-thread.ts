/**
 * Diagnostic: the per-step cost as one thread grows long (`npx tsx bench/long-thread.ts`; BENCH_POSTGRES_URL for
 * PostgreSQL besides SQLite). One thread runs TURNS turns of STEPS tool-loop steps in turn; every few turns it prints
 * the ms per step of those turns and the thread's message count, for each database, so a cost that grows with the
 * history (a read or check of every stored message per step) shows as a rising figure on one side.
 */
import { databaseTarget } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { admin, adminUrl } from "./worker-scale";
import { createThread, loopRules, postMessage, root, startBenchApp, startFakeServer, watchThread } from "./harness";

const TURNS = Number(process.env.LONG_TURNS ?? 30);
const STEPS = Number(process.env.LONG_STEPS ?? 20);
const EVERY = Number(process.env.LONG_EVERY ?? 5);

async function run(label: string, env: Record<string, string>, fakeUrl: string): Promise<string[]> {
  const b = await startBenchApp(fakeUrl, env);
  const out: string[] = [];
  try {
    const id = await createThread(b.url, "looper");
    let ms = 0;
    for (let turn = 1; turn <= TURNS; turn++) {
      const w = watchThread(b.app, id);
      const t0 = performance.now();
      await postMessage(b.url, id, "lt start");
      await w.done;
      ms += performance.now() - t0;
      if (turn % EVERY === 0) {
        const [row] = await b.app.prisma.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT COUNT(*) AS "n" FROM "Message" WHERE "threadId" = '${id}'`);
        const messages = Number(row?.n ?? 0);
        out.push(`${label}: turns ${turn - EVERY + 1}–${turn}: ${(ms / (EVERY * STEPS)).toFixed(2)} ms/step, ${messages} messages after`);
        ms = 0;
      }
    }
  } finally {
    await b.close();
  }
  return out;
}

async function main() {
  const fake = await startFakeServer();
  const server = adminUrl();
  const name = `studio_long_thread_${process.pid}`;
  try {
    await fake.setScript(loopRules("lt", STEPS));
    const lines = await run("sqlite", {}, fake.url);
    if (server) {
      await admin(server, `CREATE DATABASE "${name}"`);
      const url = new URL(server);
      url.pathname = `/${name}`;
      await migrateDatabase(databaseTarget(url.toString()), { projectRoot: root });
      lines.push(...(await run("postgresql", { DATABASE_URL: url.toString() }, fake.url)));
    }
    console.log(lines.join("\n"));
  } finally {
    await fake.close();
    if (server) await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
  }
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
