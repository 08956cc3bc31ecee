import { setRecent } from "@/server/runtime/bounded-map";
import type { VisibleEnv } from "@/server/runtime/ports";

/** Threads whose visible env is kept (the active ones; a read of any other just queries). */
const MAX_ENTRIES = 256;

/**
 * The env values visible to a thread, read up to three times per step (step context, and redaction of what the step
 * stores), kept between writes (see cached-env.ts). Any env write through the stores (`set`, `delete`) and any
 * rollback on the SQLite connection makes every entry stale; an entry also expires after `ttlMs`, so that a write by
 * another process (a PostgreSQL deployment's API process, while a worker steps the thread; on SQLite, not how the app
 * runs, but possible) shows within that time. A `get` returns the same object until then: callers treat it as
 * read-only.
 */
export class EnvCache {
  private generation = 0;
  private readonly entries = new Map<string, { generation: number; readAt: number; value: VisibleEnv }>();

  constructor(private readonly ttlMs = 1_000) {}

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
