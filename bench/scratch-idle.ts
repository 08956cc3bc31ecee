import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { databaseTarget } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { admin, adminUrl, cpuSeconds, startWorker, stopWorker } from "./worker-scale";
import { benchAgents, root, sleep } from "./harness";

const n = Number(process.argv[2] ?? 1);
const secs = Number(process.argv[3] ?? 20);
const server = adminUrl()!;
const name = `wsc_bench_idle_${n}_${process.pid}`;
const url = new URL(server);
url.pathname = `/${name}`;
await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
await admin(server, `CREATE DATABASE "${name}"`);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wsc-idle-"));
const countsFile = path.join(tmp, "c");
const env = {
  BENCH_SQL_COUNTS: countsFile, NODE_ENV: "production", DATABASE_URL: url.toString(), DATA_DIR: path.join(tmp, "data"),
  AGENTS_DIR: benchAgents, WATCH_DEFINITIONS: "0", SECRETS_KEY: "22".repeat(32), OPENAI_BASE_URL: "http://127.0.0.1:4499/v1", OPENAI_API_KEY: "x",
};
await migrateDatabase(databaseTarget(url.toString()), { projectRoot: root });
const kids = await Promise.all(Array.from({ length: n }, () => startWorker(env)));
await sleep(5000);
for (const c of kids) c.kill("SIGUSR2");
await sleep(100);
const c0 = kids.map((c) => cpuSeconds(c.pid));
const l0 = os.loadavg()[0];
await sleep(secs * 1000);
const c1 = kids.map((c) => cpuSeconds(c.pid));
for (const c of kids) c.kill("SIGUSR1");
await sleep(300);
const per = kids.map((c, i) => ((c1[i]! - c0[i]!) * 1000) / secs);
console.log(`workers ${n} load ${l0.toFixed(2)} idle CPU ms/s per worker: ${per.map((x) => x.toFixed(1)).join(" ")}`);
const tot = new Map<string, number>();
for (const c of kids) {
  const f = `${countsFile}.${c.pid}`;
  if (!fs.existsSync(f)) continue;
  for (const [k, v] of JSON.parse(fs.readFileSync(f, "utf8")) as [string, number][]) tot.set(k, (tot.get(k) ?? 0) + v);
}
console.log(`per worker per second: ` + [...tot].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / n / secs).toFixed(2)}`).join(", "));
await Promise.all(kids.map(stopWorker));
await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
fs.rmSync(tmp, { recursive: true, force: true });
