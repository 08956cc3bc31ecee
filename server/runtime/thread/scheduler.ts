import type { Persistence, WorkItemRecord } from "../ports";

export interface SchedulerOptions {
  persistence: Persistence;
  /** Runs one claimed work item (an activation, an effect). */
  run(item: WorkItemRecord): Promise<void>;
  workerId: string;
  /** Activations running at once in this process. */
  concurrency?: number;
  leaseMs?: number;
  /** Fallback poll for due work (scheduled effects, retries, other processes' enqueues). */
  pollMs?: number;
  /** On SQLite only one process runs threads: every claimed item is released at start. */
  exclusive?: boolean;
  log?(level: "info" | "warn" | "error", message: string, data?: Record<string, unknown>): void;
}

/**
 * Claims durable work items with a lease and runs them. At most one activation per thread runs at a time (the work
 * store never hands out a thread that is already claimed). At start it releases stale leases and re-queues every
 * thread that was running, so a crash or restart loses nothing.
 */
export class Scheduler {
  /** Work items running here, by item id, with their thread (an effect's may have none). */
  private readonly inFlight = new Map<string, { threadId: string | null; task: Promise<void> }>();
  private running = false;
  private wakeUp: (() => void) | null = null;
  /** A wake that came while the loop was claiming: the loop claims again instead of sleeping. */
  private wakePending = false;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private loopDone: Promise<void> | null = null;

  constructor(private readonly opts: SchedulerOptions) {}

  async start(): Promise<void> {
    const { persistence: p } = this.opts;
    const released = await p.work.releaseExpired({ all: this.opts.exclusive ?? true });
    const running = await p.threads.listRunning();
    for (const id of running) await this.enqueue(id);
    if (released > 0 || running.length > 0) {
      this.opts.log?.("info", "resuming interrupted work", { releasedLeases: released, runningThreads: running.length });
    }
    this.running = true;
    const leaseMs = this.opts.leaseMs ?? 30_000;
    this.heartbeat = setInterval(() => {
      if (this.inFlight.size > 0) void p.work.extendLeases(this.opts.workerId, leaseMs).catch(() => {});
    }, Math.max(1000, Math.floor(leaseMs / 3)));
    this.heartbeat.unref();
    this.loopDone = this.loop();
  }

  /**
   * Ask for an activation of the thread (durable: survives a restart before it runs). A thread whose activation runs
   * here cannot be claimed until that one ends, and its end wakes the loop: no claim is attempted for it now (a
   * child's report to a parent that is still stepping, say, costs the insert alone).
   */
  async schedule(threadId: string): Promise<void> {
    await this.enqueue(threadId);
    if (!this.runsHere(threadId)) this.wake();
  }

  /** Whether an item of the thread runs here (at most `concurrency` items: a scan is cheaper than a second map). */
  private runsHere(threadId: string): boolean {
    for (const item of this.inFlight.values()) if (item.threadId === threadId) return true;
    return false;
  }

  private async enqueue(threadId: string): Promise<void> {
    await this.opts.persistence.work.enqueue({ kind: "run", threadId, dedupeKey: `run:${threadId}` });
  }

  wake(): void {
    const w = this.wakeUp;
    this.wakeUp = null;
    if (w) w();
    else this.wakePending = true;
  }

  private async loop(): Promise<void> {
    const { persistence: p, workerId } = this.opts;
    const concurrency = this.opts.concurrency ?? 64;
    const leaseMs = this.opts.leaseMs ?? 30_000;
    while (this.running) {
      this.wakePending = false;
      const free = concurrency - this.inFlight.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const items = await p.work.claim(workerId, free, leaseMs);
          claimed = items.length;
          for (const item of items) this.execute(item);
        } catch (err) {
          this.opts.log?.("error", "claiming work failed", { error: String(err) });
        }
      }
      if (claimed > 0 && claimed === free) continue;
      const poll = this.opts.pollMs ?? 1000;
      const next = await p.work.nextRunAt().catch(() => null);
      const due = next ? next.getTime() - Date.now() : Infinity;
      // Exclusive (SQLite): an item due now that the claim left is one of a thread running here (or beyond a full
      // slot count); the end of that activation wakes the loop, so it is not polled for every 5 ms meanwhile.
      const wait = due <= 0 && (this.opts.exclusive ?? true) && this.inFlight.size > 0 ? poll : Math.max(5, Math.min(poll, due));
      if (this.wakePending) continue;
      await new Promise<void>((resolve) => {
        this.wakeUp = resolve;
        this.timer = setTimeout(resolve, wait);
      });
      if (this.timer) clearTimeout(this.timer);
    }
  }

  private execute(item: WorkItemRecord): void {
    const { persistence: p } = this.opts;
    const { id: itemId, threadId, attempts } = item;
    const task = (async () => {
      try {
        await this.opts.run(item);
        await p.work.complete(itemId);
      } catch (err) {
        const backoff = Math.min(60_000, 1000 * 2 ** Math.min(attempts, 6));
        this.opts.log?.("error", "activation failed; will retry", { threadId, error: String(err), retryInMs: backoff });
        await p.work.fail(itemId, String(err), attempts < 8 ? new Date(Date.now() + backoff) : null).catch(() => {});
      } finally {
        this.inFlight.delete(itemId);
        this.wake();
      }
    })();
    this.inFlight.set(itemId, { threadId, task });
  }

  /** Stop claiming; wait for running activations to finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.loopDone;
    await Promise.allSettled([...this.inFlight.values()].map((item) => item.task));
  }

  get activeCount(): number {
    return this.inFlight.size;
  }
}
