import pg from "pg";
import { ENV_CHANNEL } from "../env-cache";
import { CONTROL_CHANNEL, WORK_CHANNEL } from "./job-queue";
import { decodeWork } from "./work-store";

export interface WorkNotifications {
  close(): Promise<void>;
}

/** A stop or terminate issued in one process for a thread whose activation may run in another. */
export interface ControlMessage {
  reason: "user_stop" | "terminated";
  threadId: string;
}

export const encodeControl = (m: ControlMessage) => `${m.reason}:${m.threadId}`;

export function decodeControl(payload: string): ControlMessage | null {
  const at = payload.indexOf(":");
  const reason = payload.slice(0, at);
  const threadId = payload.slice(at + 1);
  return at > 0 && threadId && (reason === "user_stop" || reason === "terminated") ? { reason, threadId } : null;
}

/** What a worker's cache of visible env values hears (see env-cache.ts). */
export interface EnvListener {
  /** Whether every env write reaches this process from now on (true once listening, false when the connection drops). */
  notified(on: boolean): void;
  /** Some process wrote an env value. */
  changed(): void;
}

/**
 * LISTEN for "work was queued" (sent by the work store in the enqueuing transaction) and call `onWork`, so a worker
 * claims a job another process queued at once instead of at its next poll. The poll stays as the fallback; a lost
 * connection is reopened after a second. On the same connection, `onControl` receives stops and terminates issued by
 * other processes (their activation's own database checks cover one lost while the connection was down), and `env`
 * hears of env writes.
 */
export async function listenForWork(
  databaseUrl: string,
  /** `due`: when the queued job starts (ms), null for now; `key`: the job's key, null when not named (wake everyone). */
  onWork: (due: number | null, key: string | null) => void,
  log?: (level: "warn", message: string, data?: Record<string, unknown>) => void,
  onControl?: (message: ControlMessage) => void,
  env?: EnvListener,
): Promise<WorkNotifications> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: "studio-work-listener" });
    c.on("notification", (n) => {
      if (n.channel === ENV_CHANNEL) return env?.changed();
      if (n.channel !== CONTROL_CHANNEL) {
        const { due, key } = decodeWork(n.payload ?? "");
        return onWork(due, key);
      }
      const m = decodeControl(n.payload ?? "");
      if (m) onControl?.(m);
    });
    c.on("error", (err) => {
      log?.("warn", "work notifications lost; reconnecting", { error: err.message });
      env?.notified(false);
      void c.end().catch(() => {});
      if (client === c) client = null;
      schedule();
    });
    await c.connect();
    await c.query(`LISTEN ${WORK_CHANNEL}`);
    if (onControl) await c.query(`LISTEN ${CONTROL_CHANNEL}`);
    if (env) await c.query(`LISTEN ${ENV_CHANNEL}`);
    if (closed) return void (await c.end());
    client = c;
    env?.notified(true); // what was cached before may have missed writes
    onWork(null, null); // anything queued while no one listened
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
      env?.notified(false);
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
