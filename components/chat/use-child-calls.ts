"use client";

import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, useMemo } from "react";
import { useTRPC } from "@/components/trpc-provider";
import type { Row } from "./build-rows";
import type { ChildCall } from "./types";

/** The children this thread's subagent calls spawned, by tool call id: a card follows its child from the spawn on. */
export const ChildCallContext = createContext<ReadonlyMap<string, ChildCall>>(new Map());

export function useChildCall(callId: string | null | undefined): ChildCall | undefined {
  const map = useContext(ChildCallContext);
  return callId ? map.get(callId) : undefined;
}

/** Polled every 2 s while a child card is still waiting or a spawned child still runs. */
export function useChildCalls(threadId: string, rows: readonly Row[]): ReadonlyMap<string, ChildCall> {
  const trpc = useTRPC();
  const hasCards = rows.some((r) => r.kind === "child" && r.card.callId);
  const waiting = rows.some((r) => r.kind === "child" && r.card.event === "running");
  const q = useQuery(
    trpc.chat.childCalls.queryOptions(
      { threadId },
      {
        enabled: hasCards,
        refetchInterval: (query) =>
          waiting || query.state.data?.some((c) => c.threadStatus === "running") ? 2_000 : false,
      },
    ),
  );
  return useMemo(() => new Map((q.data ?? []).map((c) => [c.toolCallId, c])), [q.data]);
}
