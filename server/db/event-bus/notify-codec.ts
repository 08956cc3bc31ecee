import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { envelopeText } from "@/server/runtime/events/envelope-text";

/**
 * The payloads the PostgreSQL event bus sends with `pg_notify`. A payload must stay under 8000 bytes, so:
 * - `e` carries a whole envelope inline (most events);
 * - `r` carries only `{threadId, seq}` of a persisted event too large to send: listeners read the row from the log;
 * - `c` carries one slice of a live-only envelope too large to send (token deltas are not in the log), reassembled
 *   by the listener from consecutive slices of the same sender.
 * Every payload starts with `<kind>:<origin>:<counter>:`. The origin is the sending bus instance, so a process skips
 * its own notifications (it has already delivered them locally); the counter makes every payload of a sender unique,
 * because PostgreSQL folds identical payloads sent in one transaction into one. It also only grows: one sender's
 * payloads arrive in the order sent (one connection), so a payload whose counter is not above the last one received
 * from that sender is a repeat (a batch re-sent after the sender lost its connection mid-send) and is dropped.
 */
export type NotifyMessage =
  | { kind: "envelope"; origin: string; envelope: ThreadEventEnvelope }
  | { kind: "ref"; origin: string; threadId: string; seq: number };

/** PostgreSQL refuses payloads of 8000 bytes or more; stay safely below. */
export const MAX_PAYLOAD_BYTES = 7900;
/** Incomplete sliced envelopes held at most (a sender that died mid-envelope never completes its own). */
const MAX_PARTIAL = 1000;
/** Senders whose last counter is remembered (oldest forgotten first). */
const MAX_ORIGINS = 10_000;

export class NotifyEncoder {
  private counter = 0;

  constructor(
    readonly origin: string,
    private readonly maxBytes: number = MAX_PAYLOAD_BYTES,
  ) {
    if (!/^[A-Za-z0-9_-]+$/.test(origin)) throw new Error(`notify origin must be alphanumeric, got "${origin}"`);
  }

  /** One payload, or several slices for a large live-only envelope. */
  encode(env: ThreadEventEnvelope): string[] {
    const json = envelopeJson(env);
    const inline = `e:${this.origin}:${this.next()}:${json}`;
    if (Buffer.byteLength(inline) <= this.maxBytes) return [inline];
    if (env.persisted) return [`r:${this.origin}:${this.next()}:${JSON.stringify([env.threadId, env.seq])}`];
    const id = this.next();
    const slices = utf8Slices(json, this.maxBytes - 80);
    return slices.map((s, i) => `c:${this.origin}:${this.next()}:${id}:${i}:${slices.length}:${s}`);
  }

  private next(): string {
    this.counter = (this.counter + 1) % Number.MAX_SAFE_INTEGER;
    return this.counter.toString(36);
  }
}

/**
 * `JSON.stringify(env)`. An event appended in this process comes with its stored text (envelope-text.ts), which is
 * spliced in rather than serialized again: the same text, the envelope's members in the order it was built with.
 */
export function envelopeJson(env: ThreadEventEnvelope): string {
  const text = envelopeText(env);
  if (text === undefined) return JSON.stringify(env);
  return `{"threadId":${JSON.stringify(env.threadId)},"seq":${env.seq},"persisted":${env.persisted},"at":${JSON.stringify(env.at)},"event":${text}}`;
}

/** Decodes payloads; slices of a large envelope are held until the last one arrives. */
export class NotifyDecoder {
  private readonly partial = new Map<string, { parts: string[]; total: number }>();
  private readonly lastCounter = new Map<string, number>();

  /**
   * The decoded message, `null` while a sliced envelope is incomplete, `"duplicate"` for a payload received before;
   * throws on a malformed payload.
   */
  decode(payload: string): NotifyMessage | null | "duplicate" {
    const [kind, origin, counter, ...rest] = splitN(payload, 3);
    if (!origin) throw new Error("notify payload without an origin");
    const n = parseInt(counter ?? "", 36);
    if (!Number.isSafeInteger(n)) throw new Error("notify payload without a counter");
    const last = this.lastCounter.get(origin);
    if (last !== undefined && n <= last) return "duplicate";
    this.lastCounter.delete(origin);
    this.lastCounter.set(origin, n);
    if (this.lastCounter.size > MAX_ORIGINS) this.lastCounter.delete(this.lastCounter.keys().next().value!);
    const body = rest[0] ?? "";
    if (kind === "e") return { kind: "envelope", origin, envelope: JSON.parse(body) as ThreadEventEnvelope };
    if (kind === "r") {
      const [threadId, seq] = JSON.parse(body) as [string, number];
      if (typeof threadId !== "string" || !Number.isInteger(seq)) throw new Error("malformed event reference");
      return { kind: "ref", origin, threadId, seq };
    }
    if (kind === "c") {
      const [id, index, total, slice] = splitN(body, 3);
      const key = `${origin}:${id}`;
      const n = Number(total);
      let entry = this.partial.get(key);
      if (!entry) {
        if (this.partial.size >= MAX_PARTIAL) this.partial.delete(this.partial.keys().next().value!);
        this.partial.set(key, (entry = { parts: [], total: n }));
      }
      entry.parts[Number(index)] = slice ?? "";
      if (entry.parts.filter((p) => p !== undefined).length < entry.total) return null;
      this.partial.delete(key);
      return { kind: "envelope", origin, envelope: JSON.parse(entry.parts.join("")) as ThreadEventEnvelope };
    }
    throw new Error(`unknown notify payload kind "${kind}"`);
  }

  /** Drop incomplete slices (after a lost connection their remaining parts never arrive); counters are kept. */
  reset(): void {
    this.partial.clear();
  }

  get pendingSlices(): number {
    return this.partial.size;
  }
}

/** Split on the first `n` colons: n + 1 parts at most, the last one holding the rest verbatim. */
function splitN(s: string, n: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const at = s.indexOf(":", start);
    if (at < 0) break;
    out.push(s.slice(start, at));
    start = at + 1;
  }
  out.push(s.slice(start));
  return out;
}

/** Cut a string into pieces of at most `maxBytes` UTF-8 bytes each, never inside a character. */
export function utf8Slices(s: string, maxBytes: number): string[] {
  const bytes = Buffer.from(s, "utf8");
  const out: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + maxBytes, bytes.length);
    // Back off continuation bytes (10xxxxxx) so the slice ends on a character boundary.
    while (end < bytes.length && end > start && (bytes[end]! & 0xc0) === 0x80) end--;
    // A budget smaller than one character: take the whole character.
    if (end === start) for (end = start + 1; end < bytes.length && (bytes[end]! & 0xc0) === 0x80; ) end++;
    out.push(bytes.subarray(start, end).toString("utf8"));
    start = end;
  }
  return out;
}
