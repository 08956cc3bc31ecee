import type { RegistrySnapshot } from "@/server/registry";
import { draftSnapshot } from "@/server/registry/writer";
import { setRecent } from "@/server/runtime/bounded-map";
import type { Definitions } from "@/server/runtime/definitions";
import { definitionsFromSnapshot } from "@/server/runtime/definitions-from-registry";
import type { ThreadDraft } from "@/server/runtime/ports";
import type { SaveChange } from "@/shared/editor/save-change";

/** How many built drafts a process keeps (least recently used first out); a dropped one is rebuilt on its next use. */
export const MAX_CACHED_DRAFTS = 16;


/**
 * The runtime's `draftDefinitions` port: a draft's definitions, built on the registry's current snapshot with the
 * draft's changes applied in memory (`draftSnapshot`: the registry's own validation and linking; nothing is written).
 * Built drafts are cached per draft id and snapshot, bounded to `MAX_CACHED_DRAFTS`; the drafts themselves live in
 * the thread's state, so a restart, another worker process or an evicted entry rebuilds them from the saved files of
 * the moment. Throws `DefinitionWriteError` (with each issue's file and field) when the draft does not build.
 */
export function draftDefinitionsCache(current: () => RegistrySnapshot, max = MAX_CACHED_DRAFTS): (draft: ThreadDraft) => Definitions {
  const cache = new Map<string, { base: RegistrySnapshot; defs: Definitions }>();
  return (draft) => {
    const base = current();
    const hit = cache.get(draft.id);
    if (hit && hit.base === base) {
      setRecent(cache, draft.id, hit, max);
      return hit.defs;
    }
    const defs = definitionsFromSnapshot(draftSnapshot(base, draft.changes as SaveChange[]));
    setRecent(cache, draft.id, { base, defs }, max);
    return defs;
  };
}
