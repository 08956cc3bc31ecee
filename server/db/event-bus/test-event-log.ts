import pg from "pg";
import type { RuntimeEvent, ThreadEventEnvelope } from "@/shared/runtime-events";
import type { EventCatchUp } from "./pg-event-bus";

/**
 * A PostgreSQL event log for the bus tests, in plain SQL on the two tables the bus reads (same names and columns as
 * the Prisma schema): append with the thread's contiguous seq in one transaction, read after a seq, threads changed.
 */
export class SqlTestEventLog {
  readonly pool: pg.Pool;

  constructor(url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 4 });
    // An idle client the server ends (a terminated backend, the teardown's DROP … WITH (FORCE)) is dropped by the
    // pool; without a listener its error would be an uncaught exception of the test process.
    this.pool.on("error", () => {});
  }

  async createTables(): Promise<void> {
    await this.pool.query(`
      CREATE TABLE IF NOT EXISTS "Thread" (id text PRIMARY KEY, "eventSeq" integer NOT NULL DEFAULT 0,
        "updatedAt" timestamptz NOT NULL DEFAULT now());
      CREATE TABLE IF NOT EXISTS "ThreadEvent" ("threadId" text NOT NULL, seq integer NOT NULL, type text NOT NULL,
        data jsonb NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now(), PRIMARY KEY ("threadId", seq));`);
  }

  async createThread(id: string): Promise<void> {
    await this.pool.query(`INSERT INTO "Thread" (id) VALUES ($1)`, [id]);
  }

  async append(threadId: string, event: RuntimeEvent): Promise<ThreadEventEnvelope> {
    const c = await this.pool.connect();
    try {
      await c.query("BEGIN");
      const { rows } = await c.query(`UPDATE "Thread" SET "eventSeq" = "eventSeq" + 1, "updatedAt" = now() WHERE id = $1 RETURNING "eventSeq"`, [threadId]);
      const seq = rows[0].eventSeq as number;
      const at = new Date();
      await c.query(`INSERT INTO "ThreadEvent" ("threadId", seq, type, data, "createdAt") VALUES ($1, $2, $3, $4, $5)`, [threadId, seq, event.type, JSON.stringify(event), at]);
      await c.query("COMMIT");
      return { threadId, seq, persisted: true, at: at.toISOString(), event };
    } catch (err) {
      await c.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  catchUp(): EventCatchUp {
    return {
      readEvents: async (threadId, afterSeq, limit) => {
        const { rows } = await this.pool.query(
          `SELECT seq, data, "createdAt" FROM "ThreadEvent" WHERE "threadId" = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          [threadId, afterSeq, limit],
        );
        return rows.map((r) => ({ threadId, seq: r.seq, persisted: true, at: (r.createdAt as Date).toISOString(), event: r.data }));
      },
      threadSeqs: async (since, threadIds) => {
        const { rows } = await this.pool.query(
          `SELECT id, "eventSeq", COALESCE((SELECT max(e.seq) FROM "ThreadEvent" e WHERE e."threadId" = t.id AND e."createdAt" < $1), 0) AS before
           FROM "Thread" t WHERE "updatedAt" >= $1 OR id = ANY($2::text[])`,
          [since, threadIds],
        );
        return rows.map((r) => ({ threadId: r.id, seq: r.eventSeq, before: Number(r.before) }));
      },
    };
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
