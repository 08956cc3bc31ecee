import type { RuntimeEvent, ThreadEventEnvelope } from "@/shared/runtime-events";
import { NotFoundError } from "@/server/runtime/errors";
import type { EventLog, ThreadPatch, ThreadRecord, ThreadStore } from "@/server/runtime/ports";
import { appendedEnvelopes, eventTexts } from "../event-texts";
import { withParsedState } from "../repositories/threads";
import { sqlDate } from "../sqlite-direct/columns";
import { threadUpdate, toThread } from "../sqlite-direct/threads";
import type { StateCache } from "../sqlite-direct/state-cache";
import { DirectPg, type Row, type Runner } from "./connection";

/** The record of a `Thread` row (the SQLite stores' mapper); the parsed state is reused while its text is the same. */
export function toPgThreadRecord(states: StateCache, r: Row): ThreadRecord {
  const id = r.id as string;
  const text = r.state as string;
  const held = states.get(id, text);
  const record = withParsedState(toThread(r, held === undefined), held);
  if (held === undefined) states.set(id, text, record.state);
  return record;
}

/**
 * `get` and `update`, the thread reads and writes of every step, and the per-process check for aborts
 * (`pendingAborts`). In a transaction `get` locks the row until commit (once; the lock's read is the row), as
 * row-lock.ts does for the Prisma store.
 */
export function pgThreads(sql: Runner, states: StateCache, base: ThreadStore): ThreadStore {
  return {
    ...base,
    async lock(id) {
      // Whatever runs next in the transaction runs with the row locked: no need to wait for the lock's answer.
      await sql.lockQueued(id);
    },
    async get(id) {
      // In a transaction the lock's read is the row.
      if (!(sql instanceof DirectPg)) {
        const locked = await sql.lock(id);
        return locked ? toPgThreadRecord(states, locked) : null;
      }
      // Autocommit locks nothing: the read is asked for at once (a read asked for with it goes out behind it).
      const row = (await sql.get<Row>(`SELECT * FROM "Thread" WHERE "id" = ?`, id)) ?? null;
      sql.known.setRow(id, row);
      return row ? toPgThreadRecord(states, row) : null;
    },
    async pendingAborts(ids) {
      if (ids.length === 0) return [];
      // One named statement whatever the number of threads (an array parameter, not a list of placeholders).
      const rows = await sql.all<{ id: string; status: string }>(
        `SELECT "id", "status" FROM "Thread" WHERE "id" = ANY(?::text[]) AND ("status" = 'terminated' OR "stopRequestedAt" IS NOT NULL)`,
        [...ids],
      );
      return rows.map((r) => ({ id: r.id, reason: r.status === "terminated" ? "terminated" : "user_stop" }));
    },
    async update(id, patch: ThreadPatch) {
      const update = threadUpdate(id, patch);
      // The row locked in this transaction: the row after the update is known (the held row with the columns set and
      // the version bumped), so the statement goes out without waiting for its answer (with the next statement or the
      // COMMIT, which fails if it did, or if it found no row).
      const locked = sql.lockedRow(id);
      const held = locked && (await locked);
      if (held) {
        const state = update.stateText !== undefined ? (JSON.parse(update.stateText) as ThreadRecord["state"]) : undefined;
        await sql.writeThen(`WITH "u" AS (${update.text}) ${ONE_ROW}`, update.args, (rows) => {
          // The state's text as the database keeps it (jsonb's): the next read of the row finds it parsed.
          const text = rows[0]?.state;
          if (state === undefined || typeof text !== "string") return;
          states.set(id, text, state);
          sql.patchLocked(id, { state: text });
        });
        const row: Row = { ...held, ...update.columns, version: Number(held.version) + 1 };
        sql.wrote(id, row);
        if (update.stateText !== undefined) states.set(id, update.stateText, state!);
        return toPgThreadRecord(states, row);
      }
      const row = await sql.get<Row>(update.text, ...update.args);
      if (!row) throw new NotFoundError(`Thread ${id} not found`);
      sql.wrote(id, row);
      // The state just written, from its own text (the column's text is jsonb's rewrite of it): a typed state the
      // runtime built needs no schema check.
      if (update.stateText !== undefined) states.set(id, row.state as string, JSON.parse(update.stateText) as ThreadRecord["state"]);
      return toPgThreadRecord(states, row);
    },
  };
}

/**
 * The event log's appends (several per step): one statement reserves the seqs on the thread row's counter and
 * inserts the events (the same statement as repositories/events.ts, on the driver).
 */
export function pgEvents(sql: Runner, base: EventLog): EventLog {
  async function appendMany(threadId: string, events: RuntimeEvent[]): Promise<ThreadEventEnvelope[]> {
    if (events.length === 0) return [];
    const stored = eventTexts(events);
    const { texts } = stored;
    const createdAt = new Date();
    // The events' texts as one JSON array: one parameter sent as it is (an array parameter's elements are escaped
    // character by character by the driver).
    const args = [events.length, threadId, threadId, events.length, sqlDate(createdAt), `[${texts.join(",")}]`, events.length];
    // The thread locked in this transaction: its counter is known (the lock's read, kept current by this
    // transaction's writes), so the seqs are too, and the append goes out without waiting for its answer (with the
    // next statement or the COMMIT). The statement checks the counter it finds and fails, failing the commit, if it
    // is not the one expected.
    const held = await sql.lockedRow(threadId);
    const known = held?.eventSeq;
    let first: number;
    if (known !== undefined && known !== null) {
      first = Number(known) + 1;
      await sql.write(`${APPEND} ${CHECKED}`, ...args, first);
    } else {
      const reserved = await sql.get<{ first: number }>(`${APPEND} ${FIRST}`, ...args);
      if (!reserved) throw new NotFoundError(`Thread ${threadId} not found`);
      first = Number(reserved.first);
      sql.eventsReserved(threadId, first, first + events.length - 1);
    }
    sql.patchLocked(threadId, { eventSeq: first + events.length - 1 });
    return appendedEnvelopes(threadId, first, createdAt.toISOString(), events, stored);
  }
  return {
    ...base,
    async append(threadId, event) {
      return (await appendMany(threadId, [event]))[0]!;
    },
    appendMany,
    async lastSeq(threadId) {
      return (await sql.get<{ eventSeq: number }>(`SELECT "eventSeq" FROM "Thread" WHERE "id" = ?`, threadId))?.eventSeq ?? 0;
    },
  };
}

/** The update of a locked row must find it (else the statement fails, failing the commit; see `CHECKED`). */
const ONE_ROW = `SELECT CAST(CASE WHEN COUNT(*) = 1 THEN '1' ELSE 'no thread row' END AS int) AS "ok", MAX("u"."state"::text) AS "state" FROM "u"`;

/** Reserve the seqs on the thread row's counter and insert the events (the statement of repositories/events.ts). */
const APPEND = `WITH "r" AS (UPDATE "Thread" SET "eventSeq" = "eventSeq" + ?::int WHERE "id" = ? RETURNING "eventSeq"),
      "i" AS (
        INSERT INTO "ThreadEvent" ("threadId", "seq", "type", "data", "createdAt")
        SELECT ?::text, "r"."eventSeq" - ?::int + "e"."ord"::int, "e"."data"->>'type', "e"."data", ?::timestamp(3)
        FROM "r", json_array_elements(?::json) WITH ORDINALITY AS "e"("data", "ord")
      )`;
/** The first seq reserved. */
const FIRST = `SELECT "eventSeq" - ?::int + 1 AS "first" FROM "r"`;
/**
 * The first seq reserved must be the one expected, else the statement fails (a cast of text that is no number: an
 * error that depends on the row, which the planner cannot raise in advance); no thread row fails it too.
 */
const CHECKED = `SELECT CAST(COALESCE((SELECT CASE WHEN "eventSeq" - ?::int + 1 = ?::int THEN '1' ELSE 'event seq ' || "eventSeq"::text || ' not expected' END FROM "r"), 'no thread row') AS int) AS "ok"`;
