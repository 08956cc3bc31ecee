import type { PendingAbort } from "../ports";

/**
 * A stop or terminate issued on another process reaches the activation that runs the thread here through a
 * broadcast (PostgreSQL `NOTIFY`), which may be lost; on SQLite an API-only process has none. This poll is the
 * fallback, one read per process rather than one per activation: while activations run here, every `intervalMs` one
 * statement asks which of their threads have an abort recorded (`ThreadStore.pendingAborts`), and those activations
 * are aborted. Nothing is read while no activation runs, and the timer stops.
 */
export class StopPoll {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(
    /** The activations running in this process, by thread. */
    private readonly running: () => ReadonlyMap<string, AbortController>,
    private readonly read: (ids: readonly string[]) => Promise<PendingAbort[]>,
    private readonly intervalMs: number,
  ) {}

  /** An activation began: the poll runs until none is left. */
  ensure(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref?.();
  }

  /** One check of every running activation (the timer's; tests call it directly). */
  async check(): Promise<void> {
    if (this.running().size === 0) return this.stop();
    if (this.busy) return;
    const live = new Map([...this.running()].filter(([, c]) => !c.signal.aborted));
    if (live.size === 0) return;
    this.busy = true;
    try {
      for (const { id, reason } of await this.read([...live.keys()])) {
        const c = live.get(id);
        // Only the activation the read was for: one begun since (after this one applied the stop) is not touched.
        if (c && this.running().get(id) === c && !c.signal.aborted) c.abort(reason);
      }
    } catch {
      // The next check tries again (a database that is briefly unreachable fails the step's own statements anyway).
    } finally {
      this.busy = false;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
