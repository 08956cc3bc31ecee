/**
 * What the chat's event stream (`chat.events`) delivers: the thread's runtime events, flattened with their seq,
 * persistence and time, plus a `token.snapshot` with the text of the reply being streamed when the client
 * (re)connects (token deltas are live only, so a late subscriber could not rebuild it from the log).
 */
import type { StreamedRuntimeEvent } from "./runtime-events";

export interface TokenSnapshot {
  type: "token.snapshot";
  stepId: string;
  side: "a" | "b";
  /** The whole text streamed so far (it replaces, never extends, what the client holds). */
  content: string;
  reasoning: string;
  /** The last persisted event seq the partial reply follows. */
  seq: number;
  /** Always false: a snapshot is never in the log. */
  persisted: boolean;
}

export type ChatStreamEvent = StreamedRuntimeEvent | TokenSnapshot;
