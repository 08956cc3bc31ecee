import type { VisibleEnv } from "@/server/runtime/ports";

/** Threads whose visible env is kept (the active ones; a read of any other just queries). */
const MAX_ENTRIES = 1_000;

/**
 * The env values visible to a thread, read up to three times per step (step context, and redaction of what the step
 * stores), kept between writes. Any env write through the stores (`set`, `delete`), any rollback on the connection
 * and any commit by another connection (SQLite's `data_version`, e.g. another process on the same file) makes every
 * entry stale. A `get` returns the same object until then: callers treat it as read-only.
 */
export class EnvCache {
  private generation = 0;
  private readonly entries = new Map<string, { generation: number; dataVersion: number; value: VisibleEnv }>();

  /** Everything read so far is stale (a write or a rollback). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The cached value of `key`, or `read()`'s, kept; `dataVersion` is the connection's `PRAGMA data_version`. */
  get(key: string, dataVersion: number, read: () => VisibleEnv): VisibleEnv {
    const held = this.entries.get(key);
    if (held && held.generation === this.generation && held.dataVersion === dataVersion) return held.value;
    const generation = this.generation;
    const value = read();
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { generation, dataVersion, value });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
