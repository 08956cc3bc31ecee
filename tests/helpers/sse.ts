export interface SseEvent {
  id: number | null;
  data: any;
}

/** The events of an SSE body, frame by frame (`id:` and JSON `data:` lines; frames without data are skipped). */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let idx: number;
    while ((idx = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, idx);
      buffer = buffer.slice(idx + 2);
      let id: number | null = null;
      const data: string[] = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith("id: ")) id = Number(line.slice(4));
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (data.length > 0) yield { id, data: JSON.parse(data.join("\n")) };
    }
  }
}

/**
 * Read a thread's SSE stream over real HTTP until `until` says stop (or the timeout), parsing `id:` and `data:`
 * lines. `lastEventId` is sent as the `Last-Event-ID` header.
 */
export async function readSse(
  url: string,
  opts: { lastEventId?: number; until: (events: SseEvent[]) => boolean; timeoutMs?: number; headers?: Record<string, string> },
): Promise<SseEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 15_000);
  const events: SseEvent[] = [];
  try {
    const res = await fetch(url, {
      headers: { ...(opts.headers ?? {}), ...(opts.lastEventId !== undefined ? { "last-event-id": String(opts.lastEventId) } : {}) },
      signal: controller.signal,
    });
    if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
    for await (const event of sseEvents(res.body)) {
      events.push(event);
      if (opts.until(events)) {
        controller.abort();
        return events;
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
    if (!opts.until(events)) throw new Error(`SSE: condition not met before the timeout; got ${events.length} events`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  return events;
}
