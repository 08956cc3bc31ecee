import type { App } from "@/server/worker/app";
import { subtreeIds } from "./subtree";

/** Events that change what the tree shows (status, registry, names, tokens); others only touch a node's detail. */
const TREE_EVENTS = new Set(["thread.status", "subagent.updated", "llm.response", "thread.handoff", "message.created"]);
const TIMELINE_EVENTS = new Set(["llm.response", "tool.started", "tool.completed"]);

/**
 * Which threads of a subtree changed, batched every `intervalMs`: the inspector refetches the tree, the timeline and
 * the selected node only when something they show moved. Children spawned while it runs join the subtree.
 * Token deltas are ignored (the conversation streams them itself).
 */
export async function* subtreeActivity(app: App, rootId: string, signal: AbortSignal | undefined, intervalMs = 250) {
  await app.runtime.getThread(rootId);
  const members = new Set(await subtreeIds(app, rootId));
  const changed = new Set<string>();
  let tree = false;
  let timeline = false;
  let wake: (() => void) | null = null;
  const unsubscribe = app.bus.subscribeAll((env) => {
    const e = env.event;
    if (e.type === "token.delta" || !members.has(env.threadId)) return;
    if (e.type === "subagent.updated") {
      members.add(e.childId);
      changed.add(e.childId);
    }
    changed.add(env.threadId);
    if (TREE_EVENTS.has(e.type)) tree = true;
    if (TIMELINE_EVENTS.has(e.type)) timeline = true;
    const w = wake;
    wake = null;
    w?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener("abort", onAbort);
  try {
    yield { threadIds: [] as string[], tree: true, timeline: true };
    while (!signal?.aborted) {
      if (changed.size === 0) await new Promise<void>((resolve) => (wake = resolve));
      if (signal?.aborted) break;
      await new Promise((r) => setTimeout(r, intervalMs));
      const batch = { threadIds: [...changed], tree, timeline };
      changed.clear();
      tree = false;
      timeline = false;
      if (batch.threadIds.length > 0) yield batch;
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener("abort", onAbort);
  }
}
