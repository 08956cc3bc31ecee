import type pg from "pg";
import { socketStream } from "./socket-stream";

interface Waiting {
  config: pg.QueryConfig;
  resolve: (r: pg.QueryResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Autocommit reads asked for together go out together: the reads requested in the same turn of the event loop (a
 * caller's `Promise.all` of store reads) are sent on one pooled connection in one socket write (pipeline mode), one
 * round trip for all, each its own statement with its own snapshot, in the order they were asked for.
 *
 * Nothing is read ahead or kept: a read is sent when it is asked for (at the end of the current tick, before any I/O
 * of this process), and its rows go to its caller alone. A read asked for alone goes out alone, on `pool.query`.
 */
export class ReadBatcher {
  private waiting: Waiting[] | null = null;
  /** Batches sent with more than one read, and the reads in them (for tests and traces). */
  readonly sent = { batches: 0, reads: 0 };

  constructor(private readonly pool: pg.Pool) {}

  query(config: pg.QueryConfig): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      if (!this.waiting) {
        this.waiting = [];
        process.nextTick(() => this.flush());
      }
      this.waiting.push({ config, resolve, reject });
    });
  }

  private flush(): void {
    const batch = this.waiting!;
    this.waiting = null;
    if (batch.length === 1) {
      const [w] = batch;
      this.pool.query(w!.config).then(w!.resolve, w!.reject);
      return;
    }
    this.sent.batches++;
    this.sent.reads += batch.length;
    this.pool.connect().then(
      (client) => {
        // Corked: the statements pg writes one by one leave in one write once all are queued.
        const stream = socketStream(client);
        stream?.cork?.();
        let broken: unknown;
        const answers = batch.map((w) =>
          client.query(w.config).then(w.resolve, (err: unknown) => {
            // A statement's own error (a bad argument) leaves the connection usable; a broken one is not reused.
            if (!(err as { code?: unknown })?.code) broken = err;
            w.reject(err);
          }),
        );
        stream?.uncork?.();
        void Promise.all(answers).then(() => client.release(broken instanceof Error ? broken : undefined));
      },
      (err: unknown) => batch.forEach((w) => w.reject(err)),
    );
  }
}
