import pg from "pg";
import { redactDatabaseUrl } from "../database-url";

export interface NotifyConnectionOptions {
  connectionString: string;
  channel: string;
  /** LISTEN on the channel (false: send only, for a process without subscribers). */
  listen?: boolean;
  onNotification: (payload: string) => void;
  /** Called after every successful (re)connection once LISTEN is active; `reconnect` is false the first time. */
  onConnected?: (info: { reconnect: boolean; downSince: Date | null }) => void;
  /** Called when an established connection is lost (before the reconnect). */
  onLost?: () => void;
  /** First reconnect delay; doubles per failed try up to `maxBackoffMs` (with jitter). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A `SELECT 1` this often detects a dead connection that TCP has not reported. */
  pingIntervalMs?: number;
  /** Queued payloads kept while disconnected; beyond it the oldest are dropped (and counted). */
  maxQueued?: number;
  log?: (message: string) => void;
}

export interface NotifyConnectionStatus {
  connected: boolean;
  reconnects: number;
  queued: number;
  /** Round trips that sent notifications (a batch each). */
  batches: number;
  dropped: number;
  lastError: string | null;
  downSince: string | null;
}

const BATCH = 200;

/**
 * One dedicated PostgreSQL connection per process that LISTENs on the bus channel and sends the process's NOTIFYs,
 * in order, batched (`pg_notify` over `unnest`: one round trip for whatever queued while the previous batch ran).
 * When the connection drops it reconnects with exponential backoff, LISTENs again, re-sends what was queued and calls
 * `onConnected({reconnect: true})` so the bus can catch up on what it missed.
 */
export class NotifyConnection {
  private client: pg.Client | null = null;
  private readonly queue: string[] = [];
  private flushing = false;
  private flushScheduled = false;
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private everConnected = false;
  private downSince: Date | null = null;
  private readonly stats = { reconnects: 0, batches: 0, dropped: 0, lastError: null as string | null };

  constructor(private readonly opts: NotifyConnectionOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(opts.channel)) throw new Error(`channel must be a lower-case identifier, got "${opts.channel}"`);
  }

  /** Connect and LISTEN; rejects if the first connection fails (later drops reconnect on their own). */
  async start(): Promise<void> {
    await this.connect();
  }

  send(payloads: string[]): void {
    if (this.closed) return;
    this.queue.push(...payloads);
    const max = this.opts.maxQueued ?? 100_000;
    if (this.queue.length > max) {
      const drop = this.queue.length - max;
      this.queue.splice(0, drop);
      this.stats.dropped += drop;
    }
    // At the end of the tick: a commit publishes its events one by one, and they leave in one round trip.
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    process.nextTick(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  status(): NotifyConnectionStatus {
    return {
      connected: this.client !== null,
      reconnects: this.stats.reconnects,
      queued: this.queue.length,
      batches: this.stats.batches,
      dropped: this.stats.dropped,
      lastError: this.stats.lastError,
      downSince: this.downSince?.toISOString() ?? null,
    };
  }

  /** The backend pid of the current connection (tests terminate it to exercise reconnects). */
  async backendPid(): Promise<number | null> {
    const c = this.client;
    if (!c) return null;
    return Number((await c.query("SELECT pg_backend_pid() AS pid")).rows[0].pid);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    const c = this.client;
    this.client = null;
    if (c) {
      try {
        await this.flushOn(c);
      } catch {}
      await c.end().catch(() => {});
    }
  }

  private async connect(): Promise<void> {
    const c = new pg.Client({ connectionString: this.opts.connectionString, keepAlive: true, application_name: "studio-event-bus" });
    c.on("error", (err) => this.lost(c, err));
    c.on("end", () => this.lost(c, new Error("connection ended")));
    c.on("notification", (msg) => {
      if (msg.channel === this.opts.channel && msg.payload !== undefined) this.opts.onNotification(msg.payload);
    });
    try {
      await c.connect();
      if (this.opts.listen !== false) await c.query(`LISTEN ${this.opts.channel}`);
    } catch (err) {
      c.removeAllListeners("end");
      await c.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await c.end().catch(() => {});
      return;
    }
    const reconnect = this.everConnected;
    const downSince = this.downSince;
    this.client = c;
    this.everConnected = true;
    this.attempt = 0;
    this.downSince = null;
    if (reconnect) {
      this.stats.reconnects++;
      this.opts.log?.(`[event-bus] reconnected to ${redactDatabaseUrl(this.opts.connectionString)}`);
    }
    this.startPing(c);
    this.opts.onConnected?.({ reconnect, downSince });
    void this.flush();
  }

  private lost(c: pg.Client, err: Error): void {
    if (this.client !== c) return;
    this.client = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    c.removeAllListeners("notification");
    c.end().catch(() => {});
    if (this.closed) return;
    this.downSince ??= new Date();
    this.opts.onLost?.();
    this.stats.lastError = err.message;
    this.opts.log?.(`[event-bus] connection lost (${err.message}); reconnecting`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const base = this.opts.backoffMs ?? 250;
    const max = this.opts.maxBackoffMs ?? 10_000;
    const delay = Math.min(max, base * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().catch((err: Error) => {
        this.stats.lastError = err.message;
        this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private startPing(c: pg.Client): void {
    const every = this.opts.pingIntervalMs ?? 15_000;
    this.pingTimer = setInterval(() => {
      const timeout = setTimeout(() => this.lost(c, new Error("ping timed out")), every);
      timeout.unref();
      c.query("SELECT 1").then(
        () => clearTimeout(timeout),
        (err: Error) => {
          clearTimeout(timeout);
          this.lost(c, err);
        },
      );
    }, every);
    this.pingTimer.unref?.();
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.client && this.queue.length > 0) await this.flushOn(this.client);
    } catch {
      // The connection is gone: `lost` reconnects, and the batch was put back for the next connection.
    } finally {
      this.flushing = false;
    }
  }

  private async flushOn(c: pg.Client): Promise<void> {
    if (this.queue.length === 0) return;
    const batch = this.queue.splice(0, BATCH);
    try {
      // Named: parsed and planned once per connection.
      // The payloads as one JSON array (an array parameter's elements are escaped character by character by the
      // driver); sent in order, one row back.
      await c.query({ name: "studio_notify", text: NOTIFY, values: [this.opts.channel, JSON.stringify(batch)] });
      this.stats.batches++;
    } catch (err) {
      if (isRejectedPayload(err)) {
        // The server refused the batch itself (not the connection): resending would fail forever.
        this.stats.dropped += batch.length;
        this.stats.lastError = (err as Error).message;
        this.opts.log?.(`[event-bus] dropped ${batch.length} notification(s): ${(err as Error).message}`);
        return;
      }
      // Not sent (or not known to be): resend on the next connection. Persisted events are deduplicated by seq.
      this.queue.unshift(...batch);
      throw err;
    }
  }
}

/** SQLSTATE classes 22 (data exception, e.g. a payload too long) and 42 (syntax or access rule). */
function isRejectedPayload(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" && /^(22|42)[0-9A-Z]{3}$/.test(code);
}

const NOTIFY = "SELECT count(pg_notify($1, p)) AS n FROM json_array_elements_text($2::json) AS p";
