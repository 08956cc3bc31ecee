import type { RegistrySnapshot } from "@/server/registry";
// The draft builder alone: the writer's index would load the TypeScript compiler into every app process.
import { cachedDraftSnapshot } from "@/server/registry/writer/draft-snapshot";
import type { Definitions } from "@/server/runtime/definitions";
import { definitionsFromSnapshot } from "@/server/runtime/definitions-from-registry";
import type { ThreadDraft } from "@/server/runtime/ports";

/**
 * The runtime's `draftDefinitions` port: a draft's definitions, built on the registry's current snapshot with the
 * draft's changes applied in memory (`draftSnapshot`: the registry's own validation and linking; nothing is written).
 * Built drafts are cached per draft id and snapshot (`cachedDraftSnapshot`, bounded); the drafts themselves live in
 * the thread's state, so a restart, another worker process or an evicted entry rebuilds them from the saved files of
 * the moment. Throws `DefinitionWriteError` (with each issue's file and field) when the draft does not build.
 */
export function draftDefinitionsCache(current: () => RegistrySnapshot): (draft: ThreadDraft) => Definitions {
  const views = new WeakMap<RegistrySnapshot, Definitions>();
  return (draft) => {
    const snapshot = cachedDraftSnapshot(current(), draft);
    let defs = views.get(snapshot);
    if (!defs) views.set(snapshot, (defs = definitionsFromSnapshot(snapshot)));
    return defs;
  };
}
