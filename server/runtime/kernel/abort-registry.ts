/**
 * In-flight activations by thread, so a stop or terminate can abort the running step at once. Each activation also
 * owns the `state.context` object that its tools, hooks and invoked tools share (in-memory for that execution).
 */
export class AbortRegistry {
  private readonly controllers = new Map<string, AbortController>();
  private readonly contexts = new Map<string, Record<string, unknown>>();

  begin(threadId: string): AbortController {
    const c = new AbortController();
    this.controllers.set(threadId, c);
    this.contexts.set(threadId, {});
    return c;
  }

  end(threadId: string, c: AbortController): void {
    if (this.controllers.get(threadId) === c) {
      this.controllers.delete(threadId);
      this.contexts.delete(threadId);
    }
  }

  /** The `state.context` of the thread's running activation in this process, if one is running. */
  context(threadId: string): Record<string, unknown> | undefined {
    return this.contexts.get(threadId);
  }

  /** Abort the thread's running activation; returns whether one was running here. */
  abort(threadId: string, reason: "user_stop" | "terminated"): boolean {
    const c = this.controllers.get(threadId);
    if (!c) return false;
    c.abort(reason);
    return true;
  }

  isRunning(threadId: string): boolean {
    return this.controllers.has(threadId);
  }
}
