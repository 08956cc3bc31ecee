import { DefinitionError } from "../errors";
import type { ThreadRecord } from "../ports";
import type { RuntimeDeps } from "./deps";

/**
 * The deps a thread's work runs with: the runtime's own for an ordinary thread (the same object, so nothing changes
 * for it), or, for a thread started from an unsaved editor draft, a copy whose `definitions()` answers with the draft's
 * definitions, built once here so the work sees one consistent view. Throws a `DefinitionError` when the draft cannot
 * be built (e.g. the saved files changed so that it no longer validates), naming the draft and what to do.
 */
export function depsForThread(deps: RuntimeDeps, thread: Pick<ThreadRecord, "id" | "state">): RuntimeDeps {
  const draft = thread.state.draft;
  if (!draft) return deps;
  if (!deps.draftDefinitions) {
    throw new DefinitionError(`Thread ${thread.id} runs an unsaved editor draft (${draft.id}), and this process cannot build drafts: start it again from the editor's Try it, or save the draft first.`);
  }
  let defs;
  try {
    defs = deps.draftDefinitions(draft);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new DefinitionError(`Thread ${thread.id} runs an unsaved editor draft (${draft.id}) that no longer builds on the saved definitions: ${why} Start it again from the editor's Try it.`);
  }
  return { ...deps, definitions: () => defs };
}
