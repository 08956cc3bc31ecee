import type pg from "pg";
import type { MessageRecord } from "@/server/runtime/ports";
import type { Prisma } from "../generated/prisma/client";
import { CHECKED_HISTORY, CHECKED_LOCK, CHECKED_NEWER, staleOrSame } from "./checks";
import { asPrismaLikePgError, pgGuarded, type DirectPg, type Row } from "./connection";
import type { PrismaBridge } from "./prisma-bridge";
import { stampedWith, type HeldHistory } from "./history";
import { socketStream } from "./socket-stream";
import { TxKnown } from "./tx-known";

/**
 * One runtime transaction on one pooled connection (pipeline mode, see connection.ts):
 * - nothing is sent until the first statement; BEGIN goes out with it (an empty body costs nothing);
 * - `write` sends a statement whose result the caller does not need and returns at once: it travels with the next
 *   statement or the COMMIT, and its error (if any) fails the commit;
 * - the store methods that stay with Prisma run in a Prisma transaction on the same connection, opened when the
 *   first of them is called (prisma-bridge.ts);
 * - each thread is locked (`SELECT … FOR UPDATE`) once, and its row is kept current by the stores' own writes, as
 *   row-lock.ts does for the Prisma stores;
 * - optimistic (`TransactionOptions.optimistic`), a thread this process knows (known-threads.ts) is locked with a
 *   check of its row instead of a read of it, and its messages are appended with their seqs given, checked too: the
 *   transaction then waits for no answer before its COMMIT, and fails with `StaleThreadError` if a check does.
 */
export class PgTransaction {
  private connecting: Promise<pg.PoolClient> | null = null;
  private client: pg.PoolClient | null = null;
  private readonly pending: Promise<unknown>[] = [];
  private failure: unknown = null;
  private prismaTx: Promise<{ tx: Prisma.TransactionClient; close(err?: unknown): Promise<void> }> | null = null;
  private readonly locked = new Map<string, Promise<Row | null>>();
  private readonly appended = new Set<string>();
  private corked = false;
  /** A write sent before any other statement, held back: alone at commit it runs without BEGIN/COMMIT. */
  private deferred: pg.QueryConfig | null = null;
  private readonly seen: TxKnown;
  /** Statements here run in this transaction (see `DirectPg.autocommit`). */
  readonly autocommit = false;

  constructor(
    private readonly direct: DirectPg,
    private readonly bridge: PrismaBridge,
    optimistic = false,
  ) {
    this.seen = new TxKnown(direct.known, direct.history, optimistic);
  }

  private connection(): Promise<pg.PoolClient> {
    this.connecting ??= this.direct.pool.connect().then((c) => {
      this.client = c;
      this.track(this.send(c, "BEGIN"));
      if (this.deferred) this.track(this.send(c, this.deferred));
      this.deferred = null;
      return c;
    });
    return this.connecting;
  }

  /**
   * Send a statement. The statements sent in one turn of the event loop go out in one write: a write to a socket is
   * a system call, which on a virtual machine costs about as much as PostgreSQL takes to run a simple statement.
   */
  private send(c: pg.PoolClient, query: string | pg.QueryConfig): Promise<pg.QueryResult<Row>> {
    const stream = socketStream(c);
    if (!this.corked && stream?.cork && stream.uncork) {
      this.corked = true;
      stream.cork();
      process.nextTick(() => {
        this.corked = false;
        stream.uncork!();
      });
    }
    return typeof query === "string" ? c.query<Row>(query) : c.query<Row>(query);
  }

  private track(p: Promise<unknown>): void {
    this.pending.push(
      p.catch((err: unknown) => {
        this.failure ??= err;
      }),
    );
  }

  async all<T = Row>(sql: string, ...args: unknown[]): Promise<T[]> {
    const c = await this.connection();
    try {
      return (await this.send(c, this.direct.config(sql, args))).rows as T[];
    } catch (err) {
      // A statement after a failed one fails with "current transaction is aborted": report the first error.
      throw asFirst(this.failure ?? err);
    }
  }

  async get<T = Row>(sql: string, ...args: unknown[]): Promise<T | undefined> {
    return (await this.all<T>(sql, ...args))[0];
  }

  async run(sql: string, ...args: unknown[]): Promise<number> {
    const c = await this.connection();
    try {
      return (await this.send(c, this.direct.config(sql, args))).rowCount ?? 0;
    } catch (err) {
      throw asFirst(this.failure ?? err);
    }
  }

  /**
   * Send a statement without waiting for it (see the class comment). A transaction's first statement, if a write, is
   * held until the next statement or the commit: a transaction of that one write (the request log row written before
   * a model call) then runs it alone, in autocommit, which is as atomic and spares BEGIN and COMMIT.
   */
  async write(sql: string, ...args: unknown[]): Promise<void> {
    if (!this.connecting && !this.deferred) {
      this.deferred = this.direct.config(sql, args);
      return;
    }
    const c = await this.connection();
    this.track(this.send(c, this.direct.config(sql, args)));
  }

  /**
   * As `write` (not waited for; its failure fails the commit), and its rows go to `then` once answered, before the
   * commit's answer.
   */
  async writeThen(sql: string, args: unknown[], then: (rows: Row[]) => void): Promise<void> {
    const c = await this.connection();
    this.track(this.send(c, this.direct.config(sql, args)).then((r) => then(r.rows)));
  }

  /** A message appended in this transaction (its tool calls cannot have started before it). */
  noteAppended(record: MessageRecord): void {
    this.appended.add(record.id);
    this.seen.appendedMessage(record);
  }

  /** See TxKnown.nextSeq: the seq of the next message of a thread whose lock is checked, given instead of read. */
  nextMessageSeq(threadId: string): { after: number; seq: number } | undefined {
    return this.seen.nextSeq(threadId);
  }

  /** Events appended to a thread not locked here: its known event counter follows at commit. */
  eventsReserved(threadId: string, first: number, last: number): void {
    this.seen.eventsReserved(threadId, first, last);
  }

  /**
   * The history held in memory (`held`, whose last seq is `last`), checked instead of read, with the messages appended
   * here after it: when the thread's lock is checked and its last seq, known before this transaction, is `last`.
   * Undefined otherwise (the caller reads it).
   */
  async checkedHistory(threadId: string, held: HeldHistory): Promise<MessageRecord[] | undefined> {
    const last = held.rows.at(-1);
    if (!last || this.seen.historyBase(threadId) !== last.seq) return undefined;
    const c = await this.connection();
    const appended = this.seen.appendedTo(threadId);
    const ids = appended.map((m) => m.id);
    // Held with the row the lock checks (its version changes with any edit or delete of a message): only messages
    // stored after them are looked for; else every held row is checked.
    const row = this.seen.checkedRow(threadId);
    if (row && stampedWith(held, row)) {
      this.track(this.send(c, this.direct.config(CHECKED_NEWER, [threadId, last.seq, ids])));
    } else {
      const args = [last.seq, held.rows.length, last.seq, last.id, last.seq, held.updated, last.seq, ids, threadId];
      this.track(this.send(c, this.direct.config(CHECKED_HISTORY, args)));
    }
    return [...held.rows, ...appended];
  }

  appendedHere(messageId: string): boolean {
    return this.appended.has(messageId);
  }

  /** Lock the thread's row until commit and read it (once per transaction); null when there is no such thread. */
  lock(threadId: string): Promise<Row | null> {
    let held = this.locked.get(threadId);
    if (!held) {
      held = this.connection().then((c) => this.sendLock(c, threadId));
      this.hold(threadId, held);
    }
    return held;
  }

  /**
   * Lock the thread's row without waiting for the answer: resolves once the lock is sent. The statements sent after
   * it run after it (one connection, in order), each with a snapshot taken once the lock is held, so a store that
   * needs the lock but not the row saves a round trip; a failed lock fails them and the commit.
   */
  async lockQueued(threadId: string): Promise<void> {
    if (this.locked.has(threadId)) return;
    const c = await this.connection();
    if (!this.locked.has(threadId)) this.hold(threadId, this.sendLock(c, threadId));
  }

  /** Lock the row: with a check of the known row (optimistic, see TxKnown.rowToCheck), else with a read of it. */
  private sendLock(c: pg.PoolClient, threadId: string): Promise<Row | null> {
    const known = this.seen.rowToCheck(threadId);
    if (known) {
      this.track(this.send(c, this.direct.config(CHECKED_LOCK, [known.version, known.eventSeq, threadId])));
      this.seen.lockedFrom(threadId, known);
      return Promise.resolve(known);
    }
    return this.send(c, this.direct.config(LOCK, [threadId])).then(
      (r) => {
        const row = r.rows[0] ?? null;
        if (row) this.seen.lockedFrom(threadId, row);
        return row;
      },
      (err: unknown) => {
        throw asFirst(this.failure ?? err);
      },
    );
  }

  /** Also when nobody waits for the row (lockQueued), a failed lock fails the commit. */
  private hold(threadId: string, held: Promise<Row | null>): void {
    this.locked.set(threadId, held);
    this.track(held);
  }

  /** The locked row of a thread as last read or written here; undefined when it is not locked here. */
  lockedRow(threadId: string): Promise<Row | null> | undefined {
    return this.locked.get(threadId);
  }

  /** A store wrote the thread's row in this transaction (RETURNING *): its new value. */
  wrote(threadId: string, row: Row): void {
    if (this.locked.has(threadId)) this.locked.set(threadId, Promise.resolve(row));
  }

  /** A Prisma store wrote the row: the held copy is stale (the next read locks again, at no cost, and reads it). */
  forgetLocked(threadId: string): void {
    this.locked.delete(threadId);
    this.seen.forget(threadId);
  }

  /** A store changed some columns of the row without reading it back (the event counter): patch the held row. */
  patchLocked(threadId: string, patch: Row): void {
    const held = this.locked.get(threadId);
    if (held) this.locked.set(threadId, held.then((r) => (r ? { ...r, ...patch } : r)));
  }

  /** The Prisma transaction client on this transaction's connection (opened on first use). */
  prisma(): Promise<Prisma.TransactionClient> {
    this.prismaTx ??= this.connection().then((c) => this.bridge.open(c));
    return this.prismaTx.then((p) => p.tx);
  }

  async commit(): Promise<void> {
    if (!this.connecting) {
      const alone = this.deferred;
      this.deferred = null;
      if (alone) await pgGuarded(() => this.direct.pool.query(alone));
      return;
    }
    const c = await this.connecting;
    try {
      if (this.prismaTx) await (await this.prismaTx).close();
      const done = this.send(c, "COMMIT");
      await Promise.all(this.pending);
      const result = await done;
      if (this.failure) throw asFirst(this.failure);
      // COMMIT of a transaction that failed meanwhile answers ROLLBACK.
      if (result.command === "ROLLBACK") throw new Error("the transaction was rolled back");
      c.release();
    } catch (err) {
      this.seen.discard(this.locked);
      c.release(err instanceof Error ? err : true);
      this.client = null;
      throw err;
    }
    await this.seen.publish(this.locked, this.prismaTx !== null);
  }

  /**
   * Send the commit without waiting for its answer: resolves once it is sent, with `answered`, which settles with the
   * answer (rejects if it failed). A transaction of one held write (see `write`) sends it alone, in autocommit, on a
   * pooled connection: it is written to the socket when this resolves, so it reaches PostgreSQL even if this process
   * dies next. Any other transaction commits as `commit` does, its answer awaited before this resolves.
   */
  async commitSent(): Promise<{ answered: Promise<void> }> {
    const alone = this.deferred;
    if (this.connecting || !alone) {
      await this.commit();
      return { answered: Promise.resolve() };
    }
    this.deferred = null;
    const c = await pgGuarded(() => this.direct.pool.connect());
    // An idle connection writes a statement as it is queued (pg's Client.query on a ready client).
    const answered = c.query(alone).then(
      () => c.release(),
      (err: unknown) => {
        // A statement's own error leaves the connection usable; a broken one is not reused.
        c.release((err as { code?: unknown })?.code ? undefined : err instanceof Error ? err : true);
        throw asFirst(err);
      },
    );
    return { answered };
  }

  async rollback(reason: unknown): Promise<void> {
    this.deferred = null;
    this.seen.discard(this.locked);
    if (!this.connecting) return;
    let c: pg.PoolClient;
    try {
      c = await this.connecting;
    } catch {
      return;
    }
    if (this.prismaTx) await (await this.prismaTx.catch(() => null))?.close(reason ?? new Error("rolled back"));
    await Promise.all(this.pending);
    const ok = await this.send(c, "ROLLBACK").then(
      () => true,
      () => false,
    );
    c.release(ok ? undefined : true);
  }
}

/** A transaction's first error as the caller sees it: a unique violation as Prisma's, a failed check as stale. */
const asFirst = (err: unknown) => staleOrSame(asPrismaLikePgError(err));
const LOCK = `SELECT * FROM "Thread" WHERE "id" = ? FOR UPDATE`;
