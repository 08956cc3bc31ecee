import type { PendingAbort } from "../ports";
import { StopPoll } from "./stop-poll";

export type AbortReason = "user_stop" | "terminated";

export interface AbortRegistryOptions {
  /** Tell the other processes to abort a thread's activation (a NOTIFY); absent with one process. */
  broadcast?: (threadId: string, reason: AbortReason) => void;
  /** Read the aborts recorded for threads running here (`ThreadStore.pendingAborts`): the fallback of a lost broadcast. */
  pendingAborts?: (ids: readonly string[]) => Promise<PendingAbort[]>;
  /** How often that read runs while activations run here (ms). */
  pollMs?: number;
}

/**
 * In-flight activations by thread, so a stop or terminate can abort the running step at once. Each activation also
 * owns the `state.context` object that its tools, hooks and invoked tools share (in-memory for that execution).
 * With several processes (PostgreSQL workers) an abort of a thread that does not run here is passed to `broadcast`,
 * which tells the other processes (a NOTIFY); they abort it with `abortHere`. A lost broadcast is covered by one
 * periodic read per process of every thread running here (stop-poll.ts).
 */
export class AbortRegistry {
  private readonly controllers = new Map<string, AbortController>();
  private readonly contexts = new Map<string, Record<string, unknown>>();

  private readonly broadcast?: (threadId: string, reason: AbortReason) => void;
  private readonly poll: StopPoll | null;

  constructor(opts: AbortRegistryOptions = {}) {
    this.broadcast = opts.broadcast;
    this.poll = opts.pendingAborts ? new StopPoll(() => this.controllers, opts.pendingAborts, opts.pollMs ?? 1000) : null;
  }

  begin(threadId: string): AbortController {
    const c = new AbortController();
    this.controllers.set(threadId, c);
    this.contexts.set(threadId, {});
    this.poll?.ensure();
    return c;
  }

  /** Stop the poll (the runtime closes). */
  close(): void {
    this.poll?.stop();
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

  /**
   * Abort the thread's running activation wherever it runs; returns whether one was running here. The stop or
   * terminate is committed before this is called, so a lost broadcast only delays the abort: the activation's own
   * check of the thread row and the fence in its step's transaction still discard the step (see run-step.ts).
   */
  abort(threadId: string, reason: AbortReason): boolean {
    if (this.abortHere(threadId, reason)) return true;
    this.broadcast?.(threadId, reason);
    return false;
  }

  /** Abort the thread's activation if it runs in this process (a broadcast from another process lands here). */
  abortHere(threadId: string, reason: AbortReason): boolean {
    const c = this.controllers.get(threadId);
    if (!c) return false;
    c.abort(reason);
    return true;
  }

  isRunning(threadId: string): boolean {
    return this.controllers.has(threadId);
  }
}
