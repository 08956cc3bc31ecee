import { randomUUID } from "node:crypto";

export const newId = (): string => randomUUID();

let lastMicros = 0;
/** Microseconds since the epoch, strictly increasing within the process (stable ordering of rapid writes). */
export function nowMicros(): number {
  const now = Date.now() * 1000;
  lastMicros = now > lastMicros ? now : lastMicros + 1;
  return lastMicros;
}
