import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

/**
 * WAL checkpoints on a worker thread. SQLite normally checkpoints from the connection whose commit crossed
 * `wal_autocheckpoint` (1000 pages): that commit then copies the WAL into the database file and syncs both, a few
 * milliseconds during which the event loop (the runtime, the API, every SSE stream) stands still. Here a second
 * connection on its own thread runs a PASSIVE checkpoint every `intervalMs` (it never blocks the writer), and the
 * app's connection only checkpoints itself as a backstop, when the WAL has grown past `BACKSTOP_PAGES` anyway (the
 * worker stalled or could not start).
 */
export const BACKSTOP_PAGES = 10_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 5000 });
db.pragma("synchronous = NORMAL");
const checkpoint = () => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", (m) => {
  if (m !== "stop") return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** A last checkpoint, then the thread ends. */
  stop(): Promise<void>;
}

/** Start checkpointing `file` (an SQLite database in WAL mode) from a worker thread; null when it cannot start. */
export function startCheckpointer(
  file: string,
  opts: { intervalMs?: number; log?: (message: string) => void } = {},
): Checkpointer | null {
  const log = opts.log ?? ((m: string) => console.warn(`[db] ${m}`));
  let driver: string;
  try {
    // Resolved here (the app's own dependency), so the worker loads the same build of the driver.
    driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  } catch {
    log("background WAL checkpoints are off: better-sqlite3 could not be resolved from the working directory");
    return null;
  }
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: opts.intervalMs ?? 100 } });
  worker.unref();
  let reported = false;
  worker.on("message", (m: { error?: string }) => {
    if (m.error && !reported) {
      reported = true;
      log(`a background WAL checkpoint failed (the app's connection checkpoints past ${BACKSTOP_PAGES} pages): ${m.error}`);
    }
  });
  worker.on("error", (err) => log(`the WAL checkpoint thread stopped: ${err.message}`));
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    async stop() {
      worker.postMessage("stop");
      const timeout = setTimeout(() => void worker.terminate(), 5000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
