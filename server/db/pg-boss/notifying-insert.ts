import type PgBoss from "pg-boss";

/**
 * pg-boss's job INSERT with a NOTIFY in the same statement: one round trip and one commit instead of two. The
 * executor rewrites the first statement it runs if it is the job's `INSERT … RETURNING id` into
 *
 *   WITH "job" AS (<insert>) SELECT "job"."id" FROM (SELECT pg_notify(channel, payload)) AS "n" LEFT JOIN "job" ON true
 *
 * (the notification is sent whether or not the insert was skipped as a duplicate, as before; a skipped insert gives a
 * null id, which pg-boss returns as it returns no row: null). Any other statement runs as it is, and `sent()` stays
 * false: the caller then sends the NOTIFY on its own.
 */
export function notifyingInsert(db: PgBoss.Db, channel: string, payload: string): { db: PgBoss.Db; sent(): boolean } {
  let sent = false;
  return {
    sent: () => sent,
    db: {
      executeSql(text: string, values: unknown[] = []) {
        if (sent || !INSERT_RETURNING_ID.test(text)) return db.executeSql(text, values);
        sent = true;
        const n = values.length;
        return db.executeSql(
          `WITH "job" AS (${text}) SELECT "job"."id" FROM (SELECT pg_notify($${n + 1}, $${n + 2})) AS "n" LEFT JOIN "job" ON true`,
          [...values, channel, payload],
        );
      },
    },
  };
}

const INSERT_RETURNING_ID = /^\s*INSERT\s+INTO\b[\s\S]*\bRETURNING\s+id\s*$/i;
