"use client";

import { useQueryClient, type Query } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { PatchBatch } from "@/shared/inspector/activity-batches";
import { useTRPC } from "@/components/trpc-provider";
import { applyPatches, fromSnapshot, type LiveTree, type TreeSnapshot } from "./live-tree";

const TIMELINE_EVERY_MS = 1_000;

export type LiveState = "connecting" | "live" | "reconnecting" | "error";

/** The thread a cached `inspector.node` query is about. */
const nodeQueryThread = (q: Query) => (q.queryKey[1] as { input?: { threadId?: string } } | undefined)?.input?.threadId;

/**
 * The inspector's live tree: the server sends a snapshot of the subtree, then patches with the new facts of the
 * threads that changed. Patches are applied in the browser, all that arrived within one animation frame at once, so
 * a busy 200-child tree re-renders at most once a frame and only the rows that changed. The same frame refreshes the
 * detail on screen (when its thread or its parent had an event) and, at most once a second, the timeline (when it
 * moved).
 */
export function useInspectorLive(
  rootId: string,
  initial: TreeSnapshot | null,
  enabled = true,
): { tree: LiveTree | null; state: LiveState; error: string | null } {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [tree, setTree] = useState<LiveTree | null>(() => (initial ? fromSnapshot(initial) : null));
  const treeRef = useRef<LiveTree | null>(tree);
  const queue = useRef<PatchBatch[]>([]);
  const scheduled = useRef<{ raf: number; timer: ReturnType<typeof setTimeout> } | null>(null);
  const timeline = useRef<{ last: number; timer: ReturnType<typeof setTimeout> | null }>({ last: 0, timer: null });
  const wasLive = useRef(false);
  const snapshots = useRef(0);

  const flush = useCallback(() => {
    const s = scheduled.current;
    if (s) {
      cancelAnimationFrame(s.raf);
      clearTimeout(s.timer);
      scheduled.current = null;
    }
    const patches = queue.current;
    queue.current = [];
    if (patches.length === 0 || !treeRef.current) return;
    const next = applyPatches(treeRef.current, patches);
    treeRef.current = next;
    setTree(next);
    const changed = new Set(patches.flatMap((p) => p.threadIds));
    // The timeline is read whole: at most once a second, so a busy subtree cannot keep it refetching forever.
    if (patches.some((p) => p.timeline) && !timeline.current.timer) {
      const wait = Math.max(0, timeline.current.last + TIMELINE_EVERY_MS - Date.now());
      timeline.current.timer = setTimeout(() => {
        timeline.current = { last: Date.now(), timer: null };
        void queryClient.invalidateQueries({ queryKey: trpc.inspector.timeline.queryKey({ threadId: rootId }) });
      }, wait);
    }
    // A detail shows its thread's conversation and what its parent received from it.
    void queryClient.invalidateQueries({
      queryKey: trpc.inspector.node.pathKey(),
      predicate: (q) => {
        const id = nodeQueryThread(q);
        if (!id) return false;
        const parent = next.facts.get(id)?.parentId;
        return changed.has(id) || (!!parent && changed.has(parent));
      },
    });
  }, [queryClient, rootId, trpc]);

  useEffect(
    () => () => {
      const s = scheduled.current;
      if (s) {
        cancelAnimationFrame(s.raf);
        clearTimeout(s.timer);
      }
      if (timeline.current.timer) clearTimeout(timeline.current.timer);
    },
    [],
  );

  const sub = useSubscription(
    trpc.inspector.activity.subscriptionOptions(
      { threadId: rootId },
      {
        enabled,
        onData: (batch) => {
          if (batch.kind === "snapshot") {
            queue.current = [];
            // For the benchmark's breakdown of the open time (a User Timing mark; costs nothing else).
            if (snapshots.current === 0) performance.mark("inspector-snapshot");
            const next = fromSnapshot(batch, treeRef.current ?? undefined);
            treeRef.current = next;
            setTree(next);
            // A reconnect may have missed events: what is on screen is refreshed too.
            if (snapshots.current++ > 0) void queryClient.invalidateQueries({ queryKey: trpc.inspector.pathKey(), type: "active" });
            return;
          }
          queue.current.push(batch);
          // One flush per frame; the timer covers a hidden tab, where animation frames do not run.
          scheduled.current ??= { raf: requestAnimationFrame(flush), timer: setTimeout(flush, 200) };
        },
      },
    ),
  );
  if (sub.status === "pending") wasLive.current = true;
  const state: LiveState = sub.status === "pending" ? "live" : sub.status === "error" ? "error" : wasLive.current ? "reconnecting" : "connecting";
  return { tree, state, error: sub.status === "error" ? (sub.error?.message ?? "The live feed failed") : null };
}
