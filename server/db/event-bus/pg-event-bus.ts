import { randomUUID } from "node:crypto";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { InMemoryEventBus } from "@/server/runtime/events/memory-bus";
import type { EventBus } from "@/server/runtime/ports";
import { NotifyConnection, type NotifyConnectionOptions, type NotifyConnectionStatus } from "./notify-connection";
import { NotifyDecoder, NotifyEncoder } from "./notify-codec";
import { ThreadSequencer, type ReadEventsAfter } from "./thread-sequencer";

/** What the bus reads from the database to fill gaps and to catch up after a reconnect. */
export interface EventCatchUp {
  readEvents: ReadEventsAfter;
  /**
   * Threads changed since `since` (their `updatedAt`), plus those in `threadIds`, with their last event seq and
   * `before`, the last seq of an event created before `since` (0 when none): where a catch-up starts for a thread
   * whose events this process has not delivered yet.
   */
  threadSeqs(since: Date, threadIds: string[]): Promise<{ threadId: string; seq: number; before?: number }[]>;
}

export interface PgEventBusOptions {
  connectionString: string;
  catchUp: EventCatchUp;
  /** NOTIFY channel shared by every process of one installation (default `studio_events`). */
  channel?: string;
  /** False in a process that only publishes (a worker): it sends NOTIFYs but does not LISTEN. */
  listen?: boolean;
  /** After a reconnect, threads changed this long before the connection dropped are checked too (clock skew). */
  resyncMarginMs?: number;
  connection?: Pick<NotifyConnectionOptions, "backoffMs" | "maxBackoffMs" | "pingIntervalMs" | "maxQueued">;
  log?: (message: string) => void;
}

export interface EventBusStatus {
  kind: "memory" | "postgresql";
  listening?: boolean;
  connection?: NotifyConnectionStatus;
  /** Threads waiting for an event-log read before their next event is delivered. */
  catchingUp?: number;
  /** `duplicates`: payloads received twice (a batch re-sent after the sender's connection dropped), dropped. */
  notifications?: { received: number; malformed: number; duplicates: number };
}

/**
 * The event bus of a PostgreSQL installation: events published by any process reach the subscribers of every
 * process through LISTEN/NOTIFY on one dedicated connection per process.
 *
 * - The publishing process delivers its own events locally at once and skips their NOTIFY echo (same origin).
 * - Per thread, persisted events reach subscribers once and in seq order (`ThreadSequencer`): an event that overtook
 *   another process's earlier one waits while the gap is read from the event log.
 * - Events over the 8000-byte NOTIFY limit travel as `{threadId, seq}` (persisted: read from the log) or in slices
 *   (token deltas, which are not in the log).
 * - After a lost connection it reconnects with backoff and reads, for every thread with subscribers and every thread
 *   changed meanwhile, the events it missed from the log, so a subscriber misses nothing persisted.
 */
export class PgEventBus implements EventBus {
  private readonly local = new InMemoryEventBus();
  private readonly encoder: NotifyEncoder;
  private readonly decoder = new NotifyDecoder();
  private readonly sequencer: ThreadSequencer;
  private readonly connection: NotifyConnection;
  private readonly threadSubscribers = new Map<string, number>();
  private allSubscribers = 0;
  private readonly counts = { received: 0, malformed: 0, duplicates: 0 };
  /**
   * From a lost connection until the catch-up after the reconnect has queued what was missed, notifications are held:
   * a live event of a thread this process never saw, handled first, would set where that thread starts and the
   * catch-up's earlier events of it would then be dropped as old.
   */
  private held: string[] | null = null;
  private readonly startedAt = new Date();
  private readonly ownPrefix: string;
  /**
   * Envelopes published and not yet handed to the connection: encoded and sent once the publishing code has run on to
   * its next I/O (`setImmediate`). A step's commit publishes its events, then its tool runs and its next read leaves;
   * the notification, which nobody in this process waits for, goes after that read rather than before it.
   */
  private outgoing: ThreadEventEnvelope[] = [];
  private outgoingScheduled = false;

  constructor(private readonly opts: PgEventBusOptions) {
    this.encoder = new NotifyEncoder(randomUUID().replace(/-/g, "").slice(0, 16));
    this.ownPrefix = `${this.encoder.origin}:`;
    this.sequencer = new ThreadSequencer({
      readEvents: opts.catchUp.readEvents,
      deliver: (env) => this.local.publish(env),
      onError: (err) => this.log(`[event-bus] event log read failed: ${(err as Error).message}`),
    });
    this.connection = new NotifyConnection({
      ...opts.connection,
      connectionString: opts.connectionString,
      channel: opts.channel ?? "studio_events",
      listen: opts.listen !== false,
      onNotification: (payload) => this.receive(payload),
      onConnected: ({ reconnect, downSince }) => {
        this.decoder.reset();
        if (reconnect && opts.listen !== false) void this.resync(downSince).finally(() => this.release());
        else this.release();
      },
      onLost: () => {
        if (opts.listen !== false) this.held ??= [];
      },
      log: (m) => this.log(m),
    });
  }

  /** Connect and LISTEN; resolves once notifications flow (call before serving subscribers). */
  start(): Promise<void> {
    return this.connection.start();
  }

  close(): Promise<void> {
    this.sendOutgoing();
    return this.connection.close();
  }

  /** The instance id that marks this process's notifications. */
  get origin(): string {
    return this.encoder.origin;
  }

  publish(envelope: ThreadEventEnvelope): void {
    // A process that does not listen sees only its own events: nothing to order against, no log reads.
    if (this.opts.listen === false) this.local.publish(envelope);
    else this.sequencer.push({ kind: "envelope", envelope });
    this.outgoing.push(envelope);
    if (this.outgoingScheduled) return;
    this.outgoingScheduled = true;
    setImmediate(() => this.sendOutgoing());
  }

  /** Encode what was published, in order (the encoder's counter follows the order sent), and hand it over. */
  private sendOutgoing(): void {
    this.outgoingScheduled = false;
    if (this.outgoing.length === 0) return;
    const envelopes = this.outgoing;
    this.outgoing = [];
    const payloads: string[] = [];
    for (const env of envelopes) for (const p of this.encoder.encode(env)) payloads.push(p);
    this.connection.send(payloads);
  }

  subscribe(threadId: string, listener: (envelope: ThreadEventEnvelope) => void): () => void {
    this.threadSubscribers.set(threadId, (this.threadSubscribers.get(threadId) ?? 0) + 1);
    const off = this.local.subscribe(threadId, listener);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      off();
      const n = (this.threadSubscribers.get(threadId) ?? 1) - 1;
      if (n > 0) this.threadSubscribers.set(threadId, n);
      else this.threadSubscribers.delete(threadId);
    };
  }

  subscribeAll(listener: (envelope: ThreadEventEnvelope) => void): () => void {
    this.allSubscribers++;
    const off = this.local.subscribeAll(listener);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      off();
      this.allSubscribers--;
    };
  }

  status(): EventBusStatus {
    return {
      kind: "postgresql",
      listening: this.opts.listen !== false,
      connection: this.connection.status(),
      catchingUp: this.sequencer.busyThreads,
      notifications: { ...this.counts },
    };
  }

  /** Resolves once no thread waits for an event-log read (tests). */
  settled(): Promise<void> {
    return this.sequencer.idle();
  }

  /** Test hook: the backend pid of the bus connection. */
  backendPid(): Promise<number | null> {
    return this.connection.backendPid();
  }

  /** Handle the notifications held during a reconnect, in the order they came. */
  private release(): void {
    const held = this.held;
    this.held = null;
    for (const payload of held ?? []) this.receive(payload);
  }

  private receive(payload: string): void {
    if (this.held) {
      this.held.push(payload);
      return;
    }
    this.counts.received++;
    // This process's own notifications (delivered locally already) are skipped before anything is parsed.
    if (payload.startsWith(this.ownPrefix, payload.indexOf(":") + 1)) return;
    try {
      const msg = this.decoder.decode(payload);
      if (msg === "duplicate") {
        this.counts.duplicates++;
        return;
      }
      if (!msg || msg.origin === this.encoder.origin) return;
      if (msg.kind === "ref") this.sequencer.push({ kind: "ref", threadId: msg.threadId, seq: msg.seq });
      else this.sequencer.push({ kind: "envelope", envelope: msg.envelope });
    } catch (err) {
      this.counts.malformed++;
      this.log(`[event-bus] ignored a malformed notification: ${(err as Error).message}`);
    }
  }

  /**
   * After a reconnect: read what was missed for threads with subscribers and threads changed meanwhile. A thread
   * delivered before continues after its last delivered seq; one never delivered here (an "all threads" subscriber's
   * thread that started while the connection was down) from its first event created since the drop. Either way every
   * missed event reaches the subscribers once and in order.
   */
  private async resync(downSince: Date | null): Promise<void> {
    if (this.threadSubscribers.size === 0 && this.allSubscribers === 0) return;
    // Not before this bus started: older events were never this process's to deliver.
    const since = new Date(Math.max(this.startedAt.getTime(), (downSince ?? new Date()).getTime() - (this.opts.resyncMarginMs ?? 60_000)));
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        const rows = await this.opts.catchUp.threadSeqs(since, [...this.threadSubscribers.keys()]);
        for (const { threadId, seq, before } of rows) if (seq > 0) this.sequencer.push({ kind: "ref", threadId, seq, from: before ?? seq - 1 });
        return;
      } catch (err) {
        this.log(`[event-bus] catching up after a reconnect failed (try ${attempt}): ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
      }
    }
  }

  private log(message: string): void {
    (this.opts.log ?? console.warn)(message);
  }
}
