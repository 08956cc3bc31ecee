import type { PatchBatch, SnapshotBatch } from "@/shared/inspector/activity-batches";
import type { App } from "../app-context";
import { wakeLoop } from "../live/wake-loop";
import { factsOf } from "./node-facts";
import { pendingSpawns, treeSnapshot } from "./tree";

/** Events that change what a tree row shows (status, registry, names, tokens, pending spawns). */
const TREE_EVENTS = new Set(["thread.status", "subagent.updated", "llm.response", "thread.handoff", "message.created"]);
const TIMELINE_EVENTS = new Set(["llm.response", "tool.started", "tool.completed"]);

/**
 * The live inspector feed of a subtree: a snapshot of the tree, then patches. Events are coalesced for `intervalMs`
 * after the first one of a burst, and each batch reads only the rows of the threads it touched (one statement for
 * their facts, one for their pending spawns), so a 200-child tree is never reread as a whole. Children spawned while
 * it runs join the subtree. Token deltas are ignored (the conversation streams them itself).
 */
export async function* subtreeActivity(
  app: App,
  rootId: string,
  signal: AbortSignal | undefined,
  intervalMs = 40,
): AsyncGenerator<SnapshotBatch | PatchBatch> {
  await app.runtime.getThread(rootId);
  const changed = new Set<string>();
  const rows = new Set<string>();
  let timeline = false;
  let members: Set<string> | null = null;
  const early: { threadId: string; type: string; childId?: string }[] = [];
  const note = (threadId: string, type: string, childId?: string) => {
    const m = members!;
    if (!m.has(threadId)) return;
    if (childId) {
      m.add(childId);
      changed.add(childId);
      rows.add(childId);
    }
    changed.add(threadId);
    if (TREE_EVENTS.has(type)) rows.add(threadId);
    if (TIMELINE_EVENTS.has(type)) timeline = true;
  };
  // Subscribed before the snapshot is read, so nothing between the two is lost (early events are replayed on it).
  const wakes = wakeLoop(
    (wake) =>
      app.bus.subscribeAll((env) => {
        const e = env.event;
        if (e.type === "token.delta") return;
        const childId = e.type === "subagent.updated" ? e.childId : undefined;
        if (!members) early.push({ threadId: env.threadId, type: e.type, childId });
        else note(env.threadId, e.type, childId);
        wake();
      }),
    signal,
    intervalMs,
  );
  try {
    const snap = await treeSnapshot(app, rootId);
    members = new Set(snap.facts.map((f) => f.id));
    yield { kind: "snapshot", ...snap };
    for (const e of early) note(e.threadId, e.type, e.childId);
    for await (const _ of wakes) {
      const threadIds = [...changed];
      const ids = [...rows];
      const moved = timeline;
      changed.clear();
      rows.clear();
      timeline = false;
      if (threadIds.length === 0) continue;
      const [facts, pending] = ids.length > 0 ? await Promise.all([factsOf(app, ids), pendingSpawns(app, ids)]) : [[], []];
      const found = new Set(facts.map((f) => f.id));
      yield {
        kind: "patch",
        facts,
        removed: ids.filter((id) => !found.has(id)),
        pendingOf: ids,
        pending,
        threadIds,
        timeline: moved,
      };
    }
  } finally {
    await wakes.return?.();
  }
}
