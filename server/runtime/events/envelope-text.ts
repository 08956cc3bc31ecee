import type { ThreadEventEnvelope } from "@/shared/runtime-events";

/**
 * The JSON text an envelope's event was stored as, when the event log that appended it kept it (SQLite's direct
 * appends): the SSE endpoint builds the event's frame from it instead of serializing the event again. Held beside
 * the envelope (it is never part of what a subscriber sees), and only for an event whose text parses back to exactly
 * that event, so a frame built from either is the same.
 */
const texts = new WeakMap<ThreadEventEnvelope, string>();

export function keepEnvelopeText(env: ThreadEventEnvelope, text: string): void {
  texts.set(env, text);
}

export function envelopeText(env: ThreadEventEnvelope): string | undefined {
  return texts.get(env);
}
