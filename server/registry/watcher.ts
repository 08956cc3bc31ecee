import fs from "node:fs";
import { failedSnapshot, loadRegistry } from "./registry";
import { writeNameTypes } from "./write-name-types";
import type { RegistryOptions, RegistrySnapshot } from "./types";

export interface RegistryStoreOptions extends RegistryOptions {
  /** Reload when a file under `dir` changes. */
  watch: boolean;
  /** Called after every load with the new snapshot. */
  onReload?: (snapshot: RegistrySnapshot) => void;
  /** Quiet time after the last change before reloading (default 150 ms). */
  debounceMs?: number;
  /** How often to look for AGENTS_DIR while it does not exist (default 1000 ms). */
  missingDirPollMs?: number;
  /** Write AGENTS_DIR/studio-names.d.ts after each load without errors (development). */
  writeNameTypes?: boolean;
}

export type RegistryListener = (snapshot: RegistrySnapshot) => void;

/** Holds the current snapshot and swaps it atomically on every (re)load. */
export interface RegistryStore {
  /** The latest snapshot (never undefined: the store loads once before it is returned). */
  current(): RegistrySnapshot;
  /** Reloads now; resolves with a snapshot that reflects the files as they are at or after this call. */
  reload(): Promise<RegistrySnapshot>;
  /** Called with each new snapshot; returns the unsubscribe function. */
  subscribe(listener: RegistryListener): () => void;
  /** Stops watching and forgets listeners. */
  close(): void;
}

/** Definition files, and the case files of evals. */
const RELEVANT = /\.(ts|mts|js|mjs|jsonl|csv)$/;

/** A change to `filename` can alter the registry: a definition file, or a folder (no extension). */
function isRelevant(filename: string | null): boolean {
  if (!filename) return true;
  const last = filename.split(/[\\/]/).pop() ?? filename;
  return RELEVANT.test(last) || !last.includes(".");
}

/**
 * Loads the registry and keeps it current. A broken definition file only produces diagnostics; a failure of the
 * load itself becomes a snapshot with one diagnostic. With `watch`, changes under `dir` trigger a debounced reload;
 * a missing `dir` is reported and watched for until it appears.
 */
export async function createRegistryStore(options: RegistryStoreOptions): Promise<RegistryStore> {
  const { dir, specModulePath, projectRoot } = options;
  const debounceMs = options.debounceMs ?? 150;
  const listeners = new Set<RegistryListener>();
  let version = 0;
  let closed = false;
  let snapshot: RegistrySnapshot;
  let chain: Promise<unknown> = Promise.resolve();
  let queued: Promise<RegistrySnapshot> | null = null;
  let watcher: fs.FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;

  const loadOnce = async (): Promise<RegistrySnapshot> => {
    version += 1;
    let next: RegistrySnapshot;
    try {
      next = await loadRegistry({ dir, specModulePath, projectRoot, version });
    } catch (error) {
      next = failedSnapshot(dir, version, error);
    }
    snapshot = next;
    if (options.writeNameTypes) await writeNameTypes(next).catch((error: unknown) => console.error("[registry] writing the name types failed:", error));
    if (!closed) {
      for (const listener of [...listeners]) {
        try {
          listener(next);
        } catch (error) {
          console.error("[registry] a reload listener threw:", error);
        }
      }
      try {
        options.onReload?.(next);
      } catch (error) {
        console.error("[registry] onReload threw:", error);
      }
    }
    return next;
  };

  const reload = (): Promise<RegistrySnapshot> => {
    if (queued) return queued; // not started yet: it will read the files as they are then
    const run = chain.then(() => {
      queued = null;
      return loadOnce();
    });
    queued = run;
    chain = run.catch(() => undefined);
    return run;
  };

  const scheduleReload = () => {
    if (closed) return;
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      void reload().then(() => {
        if (closed || !options.watch) return;
        if (!fs.existsSync(dir)) {
          stopWatcher();
          pollForDir();
        } else if (!watcher) startWatching();
      });
    }, debounceMs);
  };

  const stopWatcher = () => {
    watcher?.close();
    watcher = undefined;
  };

  const pollForDir = () => {
    if (poll || closed) return;
    poll = setInterval(() => {
      if (!fs.existsSync(dir)) return;
      clearInterval(poll);
      poll = undefined;
      startWatching();
      scheduleReload();
    }, options.missingDirPollMs ?? 1000);
    poll.unref();
  };

  function startWatching() {
    if (!options.watch || closed || watcher) return;
    if (!fs.existsSync(dir)) {
      pollForDir();
      return;
    }
    try {
      watcher = fs.watch(dir, { recursive: true }, (_event, filename) => {
        if (isRelevant(typeof filename === "string" ? filename : null)) scheduleReload();
      });
      watcher.unref();
      watcher.on("error", () => {
        // Usually AGENTS_DIR was removed: report it through a reload and wait for it to come back.
        stopWatcher();
        scheduleReload();
        pollForDir();
      });
    } catch (error) {
      console.error(`[registry] cannot watch ${dir}; definition changes need a restart:`, error);
    }
  }

  snapshot = await reload();
  startWatching();

  return {
    current: () => snapshot,
    reload,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      clearTimeout(debounce);
      clearInterval(poll);
      poll = undefined;
      stopWatcher();
      listeners.clear();
    },
  };
}
