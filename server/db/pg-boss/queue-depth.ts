import type PgBoss from "pg-boss";
import { PG_BOSS_SCHEMA, THREAD_WORK_QUEUE, type JobQueue } from "./job-queue";

export type PgBossQueueDepth = {
  source: "pg-boss";
  queue: string;
  /** Jobs waiting (`created` or `retry`), due now or later. */
  pending: number;
  /** Waiting jobs whose start time has come. */
  due: number;
  /** Waiting jobs that failed before and wait for their retry. */
  retry: number;
  /** Jobs a worker fetched and has not completed (`active`). */
  claimed: number;
};

/** Depth of the thread-work queue, read from pg-boss's job table in one query. */
export async function pgBossQueueDepth(queue: JobQueue): Promise<PgBossQueueDepth> {
  const db = queue.boss.getDb() as PgBoss.Db;
  const { rows } = await db.executeSql(
    `SELECT state::text AS state, count(*)::int AS n, (count(*) FILTER (WHERE start_after <= now()))::int AS due
       FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND state IN ('created', 'retry', 'active') GROUP BY state`,
    [THREAD_WORK_QUEUE],
  );
  const by = new Map(rows.map((r) => [String(r.state), { n: Number(r.n), due: Number(r.due) }]));
  const created = by.get("created") ?? { n: 0, due: 0 };
  const retry = by.get("retry") ?? { n: 0, due: 0 };
  return {
    source: "pg-boss",
    queue: THREAD_WORK_QUEUE,
    pending: created.n + retry.n,
    due: created.due + retry.due,
    retry: retry.n,
    claimed: by.get("active")?.n ?? 0,
  };
}
