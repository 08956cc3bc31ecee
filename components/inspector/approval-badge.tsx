"use client";

import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, useMemo } from "react";
import { useTRPC } from "@/components/trpc-provider";

/** Ids of the threads in the Inspector's tree that hold a tool call waiting for a human decision. */
export const AwaitingApprovalContext = createContext<ReadonlySet<string>>(new Set());

/** The threads of `rootId`'s subtree with pending approval requests (polled: a waiting thread emits nothing else). */
export function useAwaitingApproval(rootId: string): ReadonlySet<string> {
  const trpc = useTRPC();
  const approvals = useQuery(trpc.controls.approvals.queryOptions({ threadId: rootId }, { refetchInterval: 3_000 }));
  return useMemo(() => new Set((approvals.data ?? []).map((a) => a.thread_id)), [approvals.data]);
}

/** "awaiting approval" on a tree row whose thread waits for a decision (decided from the chat of any ancestor). */
export function AwaitingApprovalBadge({ threadId }: { threadId: string }) {
  const waiting = useContext(AwaitingApprovalContext);
  if (!waiting.has(threadId)) return null;
  return (
    <span
      data-testid="awaiting-approval"
      title="A tool call of this thread waits for a human decision: approve or deny it in the chat"
      className="whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100"
    >
      awaiting approval
    </span>
  );
}
