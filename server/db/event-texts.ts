import type { RuntimeEvent, ThreadEventEnvelope } from "@/shared/runtime-events";
import { keepEnvelopeText } from "@/server/runtime/events/envelope-text";
import { exactJson } from "./exact-json";
import { toJsonText } from "./json";

/**
 * The texts a batch of events is stored as, for the direct event logs (SQLite's and PostgreSQL's). An event that is
 * exactly its JSON (`exactJson`, the common case: events are plain data the runtime just built) is stored as
 * `JSON.stringify` writes it and is the envelope's event itself, with no parse of its text back; any other event is
 * checked and converted by `toJsonText` and its envelope carries the parsed text, as a reader of the log would see it.
 */
export function eventTexts(events: RuntimeEvent[]): { texts: string[]; exact: boolean[] } {
  const n = events.length;
  const texts: string[] = new Array<string>(n);
  const exact: boolean[] = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    exact[i] = exactJson(e);
    texts[i] = exact[i] ? JSON.stringify(e) : toJsonText(e, { model: "ThreadEvent", field: "data" });
  }
  return { texts, exact };
}

/**
 * The envelopes of events appended from `first` on. Each keeps its event's text (envelope-text.ts), from which the
 * SSE frame and the bus's notification are built without serializing the event again.
 */
export function appendedEnvelopes(threadId: string, first: number, at: string, events: RuntimeEvent[], stored: { texts: string[]; exact: boolean[] }): ThreadEventEnvelope[] {
  const n = events.length;
  const out: ThreadEventEnvelope[] = new Array<ThreadEventEnvelope>(n);
  for (let i = 0; i < n; i++) {
    const text = stored.texts[i]!;
    const env: ThreadEventEnvelope = {
      threadId,
      seq: first + i,
      persisted: true,
      at,
      event: stored.exact[i] ? events[i]! : (JSON.parse(text) as RuntimeEvent),
    };
    keepEnvelopeText(env, text);
    out[i] = env;
  }
  return out;
}
