import { setRecent } from "@/server/runtime/bounded-map";

/**
 * Values read from the database, each with the `DirectSqlite.stamp()` it was read at: an entry is current while the
 * stamp has not moved (nothing outside the direct stores' own writes changed the database since). A direct store
 * that writes what an entry holds updates it with `patch`, which keeps it only if it was current. Bounded to the
 * most recently used keys.
 */
export class StampedCache<V> {
  private readonly entries = new Map<string, { value: V; stamp: number }>();
  constructor(private readonly max: number) {}

  /** The value held for `key` if it was read at `stamp`. */
  get(key: string, stamp: number): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.stamp !== stamp) {
      this.entries.delete(key);
      return undefined;
    }
    setRecent(this.entries, key, e, this.max);
    return e.value;
  }

  set(key: string, value: V, stamp: number): V {
    setRecent(this.entries, key, { value, stamp }, this.max);
    return value;
  }

  /** A write through the store changed what `key` holds: apply it if the entry is current, else drop the entry. */
  patch(key: string, stamp: number, fn: (value: V) => V): void {
    const e = this.entries.get(key);
    if (!e) return;
    if (e.stamp === stamp) e.value = fn(e.value);
    else this.entries.delete(key);
  }

  /** Each key whose value `test` accepts (for a write that names a row, not its key). */
  keysWhere(test: (value: V) => boolean): string[] {
    return [...this.entries].filter(([, e]) => test(e.value)).map(([k]) => k);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
