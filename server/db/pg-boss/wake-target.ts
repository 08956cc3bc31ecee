/**
 * Which worker a work notification wakes. Every worker LISTENs on the one work channel, so every queued job used to
 * wake every worker, and each with free slots fetched: with N workers, N fetches per job, N - 1 of them empty when
 * jobs come one at a time. The notification names the job's key instead, and of the workers whose heartbeat is live
 * (read by each worker's dead-worker check once a second, dead-workers.ts) the one the key hashes to wakes. The fetch
 * stays generic (a woken worker takes whatever is due), and every worker still polls the queue once a second, so a
 * job whose worker died or is full before its heartbeat lapses waits one poll interval at most.
 */

/** Live workers as this worker last read them: its own id and every owner of a live heartbeat, sorted. */
export interface LiveWorkers {
  self: string;
  owners: readonly string[];
}

/** FNV-1a: a stable hash of the job's key, the same in every process. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The live worker a job's notification wakes (`owners` sorted, the same list in every worker). */
export function wakeTarget(key: string, owners: readonly string[]): string | undefined {
  return owners.length === 0 ? undefined : owners[hash(key) % owners.length];
}

/**
 * Whether this worker wakes for a job's notification: always when the notification names no job (an older sender,
 * a reconnect), or when this worker does not know the live workers or is not among them yet (its first second, or a
 * heartbeat that lapsed); else only when the job's key hashes to it.
 */
export function wakesHere(key: string | null, live: LiveWorkers | null): boolean {
  if (key === null || !live || !live.owners.includes(live.self)) return true;
  return wakeTarget(key, live.owners) === live.self;
}
