import { setRecent } from "@/server/runtime/bounded-map";
import type { VisibleEnv } from "@/server/runtime/ports";

/** PostgreSQL NOTIFY channel: an env value was written (sent in the writing transaction; no payload). */
export const ENV_CHANNEL = "studio_env";

/** Threads whose visible env is kept (the active ones; a read of any other just queries). */
const MAX_ENTRIES = 256;

/**
 * The env values visible to a thread, read up to three times per step (step context, and redaction of what the step
 * stores), kept between writes (see cached-env.ts). Any env write through the stores (`set`, `delete`) and any
 * rollback on the SQLite connection makes every entry stale; an entry also expires after `ttlMs`, so that a write by
 * another process (a PostgreSQL deployment's API process, while a worker steps the thread; on SQLite, not how the app
 * runs, but possible) shows within that time. On PostgreSQL every env write also sends a `NOTIFY`: a worker that
 * listens invalidates on it and keeps entries longer (`notified`), so a running thread's env is read once per
 * activation rather than once a second. A `get` returns the same object until then: callers treat it as
 * read-only.
 */
export class EnvCache {
  private generation = 0;
  private readonly entries = new Map<string, { generation: number; readAt: number; value: VisibleEnv }>();

  constructor(private ttlMs = EnvCache.POLLED_TTL_MS) {}

  /** Without word of other processes' writes: an entry is read again after a second. */
  static readonly POLLED_TTL_MS = 1_000;
  /** While this process hears of every env write (PostgreSQL `NOTIFY`, see pg-boss/work-notifications.ts). */
  static readonly NOTIFIED_TTL_MS = 60_000;

  /**
   * Whether every env write of every process reaches this one (it then invalidates the cache itself): entries are
   * kept for a minute instead of a second. Either way what is cached so far is dropped (writes may have been missed).
   */
  notified(on: boolean): void {
    this.ttlMs = on ? EnvCache.NOTIFIED_TTL_MS : EnvCache.POLLED_TTL_MS;
    this.invalidate();
  }

  /** The cache as a listener of env writes (pg-boss/work-notifications.ts). */
  listener(): { notified(on: boolean): void; changed(): void } {
    return { notified: (on) => this.notified(on), changed: () => this.invalidate() };
  }

  /** Everything read so far is stale (a write or a rollback). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The cached value of `key` if it is still good. */
  peek(key: string): VisibleEnv | undefined {
    const held = this.entries.get(key);
    return held && held.generation === this.generation && performance.now() - held.readAt < this.ttlMs ? held.value : undefined;
  }

  /** The cached value of `key`, or `read()`'s, kept. */
  async get(key: string, read: () => Promise<VisibleEnv>): Promise<VisibleEnv> {
    const held = this.peek(key);
    if (held) return held;
    const now = performance.now();
    const generation = this.generation;
    const value = await read();
    // A write that began while the read ran made it stale before it arrived.
    if (generation === this.generation) setRecent(this.entries, key, { generation, readAt: now, value }, MAX_ENTRIES);
    return value;
  }

  /** Drop the entries of a thread (keys are `threadId\nuserId`). */
  forgetThread(threadId: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${threadId}\n`)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
