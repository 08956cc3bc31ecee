import type pg from "pg";

/** What a pooled client's socket offers for sending several statements in one write (node's `cork`/`uncork`). */
export interface CorkableStream {
  cork?(): void;
  uncork?(): void;
}

/** The socket under a pooled `pg` client (not part of pg's typed API), to cork while statements are queued. */
export function socketStream(client: pg.PoolClient): CorkableStream | undefined {
  return (client as unknown as { connection?: { stream?: CorkableStream } }).connection?.stream;
}
