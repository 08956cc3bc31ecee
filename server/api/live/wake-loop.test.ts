import { describe, expect, it } from "vitest";
import { wakeLoop } from "./wake-loop";

/** A listener registry like the event bus's: `emit` calls every listener. */
function source() {
  const listeners = new Set<() => void>();
  return {
    listen: (fn: () => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    emit: () => listeners.forEach((fn) => fn()),
    get size() {
      return listeners.size;
    },
  };
}

describe("wakeLoop", () => {
  it("subscribes at once, so a wake before the first turn is not lost", async () => {
    const s = source();
    const loop = wakeLoop(s.listen, undefined);
    expect(s.size).toBe(1);
    s.emit();
    await expect(loop.next()).resolves.toEqual({ done: false, value: undefined });
    await loop.return!();
    expect(s.size).toBe(0);
  });

  it("yields once per burst and waits for the next wake", async () => {
    const s = source();
    const loop = wakeLoop(s.listen, undefined, 20);
    const turns: number[] = [];
    const run = (async () => {
      for await (const _ of loop) turns.push(Date.now());
    })();
    s.emit();
    await new Promise((r) => setTimeout(r, 5));
    s.emit();
    s.emit();
    await new Promise((r) => setTimeout(r, 50));
    expect(turns).toHaveLength(1);
    s.emit();
    await new Promise((r) => setTimeout(r, 50));
    expect(turns).toHaveLength(2);
    await loop.return!();
    await run;
    expect(s.size).toBe(0);
  });

  it("ends and unsubscribes when the signal aborts, also while waiting", async () => {
    const s = source();
    const abort = new AbortController();
    const loop = wakeLoop(s.listen, abort.signal);
    const waiting = loop.next();
    abort.abort();
    await expect(waiting).resolves.toEqual({ done: true, value: undefined });
    expect(s.size).toBe(0);
    await expect(loop.next()).resolves.toMatchObject({ done: true });
  });
});
