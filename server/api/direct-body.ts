/**
 * A streamed response body the HTTP front (server/api/node-http.ts) may have written straight to the socket instead
 * of reading it through the response's web stream: an SSE stream's frames then go from the feed to `res.write`, with
 * no `enqueue`, no reader promise and no stream queue per frame. The response keeps its web stream for any other
 * reader (Next.js's route handler, a test's `fetch`): whichever starts first takes the body, the other never sees it.
 */
export interface DirectSink {
  /** Write one chunk; false once the client went away (the producer should stop). */
  write(chunk: Uint8Array): boolean;
}

export interface DirectBody {
  /** Produce the whole body into `sink`; resolves once it is over. False (and nothing written) when the web stream already took it. */
  run(sink: DirectSink): Promise<boolean>;
}

/** Process-wide (a global symbol): the front and the Next.js bundles that build the responses load their own copies of this module. */
const KEY = Symbol.for("standard-agents-studio.direct-bodies");
const holder = globalThis as unknown as Record<symbol, WeakMap<Response, DirectBody> | undefined>;
const bodies = (holder[KEY] ??= new WeakMap<Response, DirectBody>());

export function withDirectBody(response: Response, body: DirectBody): Response {
  bodies.set(response, body);
  return response;
}

export function directBodyOf(response: Response): DirectBody | undefined {
  return bodies.get(response);
}

/**
 * A streamed body produced by `produce(send)` (which resolves when the body is over), readable either way: as the
 * returned web stream (pulled lazily: nothing is produced until a reader reads) or directly through `direct`. `stop`
 * is called when the web stream's reader cancels; a direct sink's refusal is reported to `send`'s caller as false.
 */
export function dualBody(
  produce: (send: (chunk: Uint8Array) => boolean) => Promise<void>,
  stop: () => void,
): { stream: ReadableStream<Uint8Array>; direct: DirectBody } {
  let taken = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (taken) return;
        taken = true;
        const send = (chunk: Uint8Array) => {
          try {
            controller.enqueue(chunk);
            return true;
          } catch {
            return false;
          }
        };
        void produce(send).finally(() => {
          try {
            controller.close();
          } catch {}
        });
      },
      cancel: stop,
    },
    // No chunk is asked for before a reader reads: a front that writes the body directly finds it untouched.
    { highWaterMark: 0 },
  );
  const direct: DirectBody = {
    async run(sink) {
      if (taken) return false;
      taken = true;
      await produce((chunk) => sink.write(chunk));
      return true;
    },
  };
  return { stream, direct };
}
