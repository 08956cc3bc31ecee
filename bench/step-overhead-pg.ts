/**
 * Scenario 1 on PostgreSQL: the same 50-step loop, (a) and (b) as on SQLite, our runtime on a fresh PostgreSQL
 * database (BENCH_POSTGRES_URL or a postgres:// DATABASE_URL, a role that may create databases; skipped without one).
 */
import { databaseTarget } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { root, type FakeServer, type Options, type ScenarioResult } from "./harness";
import { stepOverhead } from "./step-overhead";
import { admin, adminUrl } from "./worker-scale";

export async function stepOverheadPostgres(fake: FakeServer, opts: Options): Promise<ScenarioResult> {
  const server = adminUrl();
  if (!server) {
    return { rows: [], notes: ["Scenario 1 on PostgreSQL: skipped (set BENCH_POSTGRES_URL to a role that may create databases)."] };
  }
  const name = `${process.env.BENCH_DATABASE_PREFIX ?? "studio_bench_"}steps_${process.pid}`.toLowerCase();
  const url = new URL(server);
  url.pathname = `/${name}`;
  await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(server, `CREATE DATABASE "${name}"`);
  try {
    await migrateDatabase(databaseTarget(url.toString()), { projectRoot: root });
    return await stepOverhead(fake, opts, { databaseUrl: url.toString(), label: "postgresql" });
  } finally {
    await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
  }
}
