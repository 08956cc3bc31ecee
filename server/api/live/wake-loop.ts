/**
 * The listen → wake → abort loop of every live feed of the API, written once. `listen` subscribes at once, when
 * `wakeLoop` is called (so nothing that happens from then on is missed, e.g. while a snapshot is read), and gives its
 * listener a `wake` to call when something changed. Iterating yields once per burst of wakes: it waits until there
 * was a wake since the last turn, lets the burst settle for `settleMs` (so one turn takes what arrived meanwhile), and
 * ends when `signal` aborts. Ending in any way (abort, `return()`, leaving a `for await`) unsubscribes.
 */
export function wakeLoop(
  listen: (wake: () => void) => () => void,
  signal: AbortSignal | undefined,
  settleMs = 0,
): AsyncIterableIterator<void> {
  let pending = false;
  let resume: (() => void) | null = null;
  const release = () => {
    const r = resume;
    resume = null;
    r?.();
  };
  const unsubscribe = listen(() => {
    pending = true;
    release();
  });
  signal?.addEventListener("abort", release);
  let closed = false;
  const close = (): IteratorResult<void> => {
    if (!closed) {
      closed = true;
      unsubscribe();
      signal?.removeEventListener("abort", release);
      release();
    }
    return { done: true, value: undefined };
  };
  return {
    async next() {
      if (closed || signal?.aborted) return close();
      if (!pending) await new Promise<void>((resolve) => (resume = resolve));
      if (closed || signal?.aborted) return close();
      if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
      pending = false;
      return { done: false, value: undefined };
    },
    async return() {
      return close();
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
