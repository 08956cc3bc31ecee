import pg from "pg";
import PgBoss from "pg-boss";

/** The one pg-boss queue that holds thread work: activations (`run:<threadId>`) and effects (`effect:<effectId>`). */
export const THREAD_WORK_QUEUE = "thread-work";
export const PG_BOSS_SCHEMA = "pgboss";
/** NOTIFY channel: work was queued (sent in the enqueuing transaction, so it arrives once the job is visible). */
export const WORK_CHANNEL = "studio_work";
/** NOTIFY channel: abort a thread's activation wherever it runs (`<reason>:<threadId>`, see work-notifications.ts). */
export const CONTROL_CHANNEL = "studio_control";

export interface JobQueueOptions {
  /**
   * Run pg-boss maintenance in this process: failing (for a retry) the jobs whose worker died, archiving finished
   * ones. Worker processes do; an API-only process does not.
   */
  supervise: boolean;
  /** Seconds a job stays claimed without completing before pg-boss hands it out again (a dead worker's lease). */
  jobExpirySeconds: number;
  /** Attempts after the first; retries back off exponentially from `retryDelaySeconds`. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Connections of pg-boss's own pool. */
  poolSize?: number;
  log?(level: "warn" | "error", message: string, data?: Record<string, unknown>): void;
}

export interface JobQueue {
  boss: PgBoss;
  options: Required<Omit<JobQueueOptions, "log">>;
  stop(): Promise<void>;
}

/**
 * Start pg-boss on the database (creating its `pgboss` schema on first use) and make sure the thread-work queue
 * exists. The queue's policy is `short`: at most one *queued* job per singleton key, so a thread has at most one
 * pending activation and an effect at most one pending run. Running exclusivity per thread is not left to the
 * `singleton`/`stately` policies: in pg-boss 10 a fetch that would activate a second job of an active key fails as a
 * whole, which stalls every other thread behind it. The work store holds a thread lease instead (see work-store.ts).
 */
export async function startJobQueue(databaseUrl: string, opts: JobQueueOptions): Promise<JobQueue> {
  const options = {
    supervise: opts.supervise,
    jobExpirySeconds: opts.jobExpirySeconds,
    retryLimit: opts.retryLimit ?? 8,
    retryDelaySeconds: opts.retryDelaySeconds ?? 1,
    poolSize: opts.poolSize ?? 4,
  };
  // pg-boss runs on a pool this module owns, so the pool is closed also when a start fails.
  // Idle connections stay open between bursts of work for minutes, not pg-pool's 10 s (as the runtime's, client.ts).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize, application_name: "studio-jobs", idleTimeoutMillis: 300_000 });
  pool.on("error", (err) => opts.log?.("error", "job queue connection error", { error: err.message }));
  const db: PgBoss.Db = { executeSql: (text, values) => pool.query(text, values) };
  try {
    const boss = await retrying("starting the job queue", opts.log, () => startBoss(db, options, opts.log));
    const queue = {
      name: THREAD_WORK_QUEUE,
      policy: "short" as const,
      retryLimit: options.retryLimit,
      retryDelay: options.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: options.jobExpirySeconds,
    };
    await retrying("creating the job queue", opts.log, () => boss.createQueue(THREAD_WORK_QUEUE, queue));
    return {
      boss,
      options,
      async stop() {
        await boss.stop({ graceful: false, close: true, wait: true });
        await pool.end();
      },
    };
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
}

/**
 * pg-boss creates its schema and the queue's partition on first start. Processes starting at once on a fresh
 * database can collide there (a duplicate create, a deadlock); both steps are idempotent, so a second try succeeds.
 */
async function retrying<T>(what: string, log: JobQueueOptions["log"], fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 4) throw err;
      log?.("warn", `${what} failed; trying again`, { error: String(err) });
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200 * attempt));
    }
  }
}

async function startBoss(db: PgBoss.Db, options: Required<Omit<JobQueueOptions, "log">>, log: JobQueueOptions["log"]): Promise<PgBoss> {
  const boss = new PgBoss({
    db,
    schema: PG_BOSS_SCHEMA,
    supervise: options.supervise,
    schedule: false,
    migrate: true,
    // Expiry is checked at each maintenance run: often enough that a dead worker's jobs come back soon after expiring.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(options.jobExpirySeconds / 2))),
  });
  boss.on("error", (err: Error) => log?.("error", "job queue error", { error: err.message }));
  return boss.start();
}
