import { sseEvents, type SseEvent } from "./sse";

/**
 * An SSE client that stays connected and records every frame until `close()`: what a browser tab watching a thread
 * would have seen, for comparison with the event log.
 */
export class SseRecorder {
  readonly events: SseEvent[] = [];
  private readonly controller = new AbortController();
  private readonly done: Promise<void>;
  error: unknown = null;

  constructor(url: string, opts: { lastEventId?: number } = {}) {
    this.done = this.read(url, opts.lastEventId).catch((err) => {
      if (!this.controller.signal.aborted) this.error = err;
    });
  }

  private async read(url: string, lastEventId?: number): Promise<void> {
    const res = await fetch(url, {
      headers: lastEventId !== undefined ? { "last-event-id": String(lastEventId) } : {},
      signal: this.controller.signal,
    });
    if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
    for await (const event of sseEvents(res.body)) this.events.push(event);
  }

  /** The ids of the persisted events received (token deltas carry none). */
  ids(): number[] {
    return this.events.filter((e) => e.id !== null).map((e) => e.id!);
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.done;
  }
}
