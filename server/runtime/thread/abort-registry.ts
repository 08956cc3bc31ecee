/** In-flight activations by thread, so a stop or terminate can abort the running step at once. */
export class AbortRegistry {
  private readonly controllers = new Map<string, AbortController>();

  begin(threadId: string): AbortController {
    const c = new AbortController();
    this.controllers.set(threadId, c);
    return c;
  }

  end(threadId: string, c: AbortController): void {
    if (this.controllers.get(threadId) === c) this.controllers.delete(threadId);
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
