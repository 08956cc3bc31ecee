"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useRef } from "react";
import { useTRPC } from "@/components/trpc-provider";

/**
 * Keeps the inspector live: the server batches the subtree's changes, and each batch refetches only what it touches
 * (the tree, the timeline, and the detail of the threads that changed). Returns the connection state.
 */
export function useInspectorLive(rootId: string): "connecting" | "live" | "reconnecting" | "error" {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const wasLive = useRef(false);
  const sub = useSubscription(
    trpc.inspector.activity.subscriptionOptions(
      { threadId: rootId },
      {
        onData: (batch) => {
          if (batch.tree) void queryClient.invalidateQueries({ queryKey: trpc.inspector.tree.queryKey({ threadId: rootId }) });
          if (batch.timeline) void queryClient.invalidateQueries({ queryKey: trpc.inspector.timeline.queryKey({ threadId: rootId }) });
          // Only the selected node's detail is mounted; a child's report lands in its parent but shows in the child's
          // detail ("sent to the parent"), so any change refreshes it.
          if (batch.threadIds.length > 0) void queryClient.invalidateQueries({ queryKey: trpc.inspector.node.pathKey(), type: "active" });
        },
      },
    ),
  );
  if (sub.status === "pending") wasLive.current = true;
  return sub.status === "pending" ? "live" : sub.status === "error" ? "error" : wasLive.current ? "reconnecting" : "connecting";
}
