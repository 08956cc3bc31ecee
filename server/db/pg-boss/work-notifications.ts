import pg from "pg";
import { WORK_CHANNEL } from "./job-queue";

export interface WorkNotifications {
  close(): Promise<void>;
}

/**
 * LISTEN for "work was queued" (sent by the work store in the enqueuing transaction) and call `onWork`, so a worker
 * claims a job another process queued at once instead of at its next poll. The poll stays as the fallback; a lost
 * connection is reopened after a second.
 */
export async function listenForWork(
  databaseUrl: string,
  onWork: () => void,
  log?: (level: "warn", message: string, data?: Record<string, unknown>) => void,
): Promise<WorkNotifications> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: "studio-work-listener" });
    c.on("notification", () => onWork());
    c.on("error", (err) => {
      log?.("warn", "work notifications lost; reconnecting", { error: err.message });
      void c.end().catch(() => {});
      if (client === c) client = null;
      schedule();
    });
    await c.connect();
    await c.query(`LISTEN ${WORK_CHANNEL}`);
    if (closed) return void (await c.end());
    client = c;
    onWork(); // anything queued while no one listened
  };
  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch(() => schedule());
    }, 1000);
    retry.unref();
  };

  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
