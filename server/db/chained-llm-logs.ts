import { newId } from "@/server/runtime/ids";
import type { LlmLogRecord, LlmLogStore } from "@/server/runtime/ports";
import { expandRequests, type RequestChains } from "./llm-log-chain";

/**
 * An LLM log store that writes each request as a delta against the thread's previous one (llm-log-chain.ts) and reads
 * requests back in full. `afterCommit` runs its callback once the insert's transaction has committed (at once outside
 * a transaction): only a committed row may serve as the next row's base.
 */
export function chainedLlmLogs(store: LlmLogStore, chains: RequestChains, afterCommit: (fn: () => void) => void): LlmLogStore {
  const expand = async (rows: LlmLogRecord[]): Promise<LlmLogRecord[]> => {
    const full = await expandRequests(rows, (ids) => store.storedRequests(ids));
    return rows.map((r) => ({ ...r, request: full.get(r.id) }));
  };
  return {
    ...store,
    async insert(log) {
      const id = log.id ?? newId();
      const encoded = chains.encode(log.threadId, log.request);
      if (!encoded.delta) {
        const record = await store.insert({ ...log, id });
        afterCommit(() => chains.remember(log.threadId, id, log.request, 0));
        return record;
      }
      const { requestText: _sent, ...rest } = log;
      const record = await store.insert({ ...rest, id, request: encoded.stored });
      afterCommit(() => chains.remember(log.threadId, id, log.request, encoded.depth));
      return { ...record, request: log.request };
    },
    async list(threadId, opts) {
      return expand(await store.list(threadId, opts));
    },
    async get(id) {
      const row = await store.get(id);
      return row ? (await expand([row]))[0]! : null;
    },
  };
}
