import { StaleThreadError } from "@/server/runtime/errors";

/**
 * The statements of an optimistic transaction (see known-threads.ts) that check, instead of reading, what this process
 * last saw. Each fails (a cast of text that is no number, which depends on the rows, so the planner cannot raise it in
 * advance) when the database holds something else; the failure fails the transaction, and `staleOrSame` turns it into
 * a `StaleThreadError`. They go out without waiting for their answer, so the transaction takes one round trip.
 */
const STALE = "stale thread row";

/**
 * Lock the thread's row (as `SELECT … FOR UPDATE` does) and check it is the one last seen: its version and event
 * counter (every other write of the row bumps the version). After waiting for another writer's lock, the check sees
 * that writer's row. Arguments: version, eventSeq, thread id.
 */
export const CHECKED_LOCK = `SELECT CAST(COALESCE(
    (SELECT CASE WHEN "version" = ?::int AND "eventSeq" = ?::int THEN '1'
                 ELSE '${STALE}: version ' || "version"::text || ', event seq ' || "eventSeq"::text END
       FROM "Thread" WHERE "id" = ? FOR UPDATE),
    '${STALE}: no thread') AS int) AS "ok"`;

/**
 * The seq of a message appended with the thread locked, given instead of read: the thread's last seq must be the one
 * expected. Arguments: expected last seq, the new seq, thread id.
 */
export const CHECKED_SEQ = `(SELECT CASE WHEN COALESCE(MAX("seq"), 0) = ?::int THEN ?::int
                 ELSE CAST('${STALE}: message seq ' || COALESCE(MAX("seq"), 0)::text AS int) END
       FROM "Message" WHERE "threadId" = ?)`;

/**
 * The held history is the thread's: as many messages up to its last seq, the same id at that seq, the same latest
 * `updatedAt` (as history.ts checks), and no later message but those this transaction appended before this statement.
 * Arguments: last seq, count, last seq, last id, last seq, latest updatedAt (text), last seq, the ids of the messages
 * this transaction appended to the thread (text[]), thread id.
 */
export const CHECKED_HISTORY = `SELECT CAST(CASE
      WHEN COUNT(*) FILTER (WHERE "seq" <= ?::int) = ?::int
       AND MAX(CASE WHEN "seq" = ?::int THEN "id" END) = ?::text
       AND (MAX("updatedAt") FILTER (WHERE "seq" <= ?::int))::text = ?::text
       AND COUNT(*) FILTER (WHERE "seq" > ?::int AND NOT ("id" = ANY(?::text[]))) = 0 THEN '1'
      ELSE '${STALE}: history of ' || COUNT(*)::text || ' messages' END AS int) AS "ok"
    FROM "Message" WHERE "threadId" = ?`;

/**
 * No message of the thread after the held history's last seq but those this transaction appended before this
 * statement: the held rows themselves need no check when the lock checks the row they were found with (history.ts).
 * Arguments: thread id, last seq, the ids of the messages this transaction appended to the thread (text[]).
 */
export const CHECKED_NEWER = `SELECT CAST(CASE WHEN COUNT(*) = 0 THEN '1'
      ELSE '${STALE}: ' || COUNT(*)::text || ' messages after the held history' END AS int) AS "ok"
    FROM "Message" WHERE "threadId" = ? AND "seq" > ?::int AND NOT ("id" = ANY(?::text[]))`;

/** A check's failure as a `StaleThreadError`; any other error as it is. */
export function staleOrSame(err: unknown): unknown {
  const message = (err as { message?: unknown } | null)?.message;
  if ((err as { code?: unknown } | null)?.code !== "22P02" || typeof message !== "string" || !message.includes(STALE)) return err;
  return new StaleThreadError(`the thread changed since this process last saw it (${/"([^"]*)"/.exec(message)?.[1] ?? message})`);
}
