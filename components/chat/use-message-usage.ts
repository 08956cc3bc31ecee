"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import { useTRPC } from "@/components/trpc-provider";
import type { MessageUsage } from "./types";

/** Tokens and cost behind each assistant message, by message id. */
export const MessageUsageContext = createContext<Readonly<Record<string, MessageUsage>>>({});

export function useMessageUsageOf(messageId: string): MessageUsage | undefined {
  return useContext(MessageUsageContext)[messageId];
}

/** Read again whenever a newer message arrives (the request log is written with the message). */
export function useMessageUsage(threadId: string, lastSeq: number): Readonly<Record<string, MessageUsage>> {
  const trpc = useTRPC();
  const q = useQuery(
    trpc.chat.messageUsage.queryOptions(
      { threadId, upTo: lastSeq },
      { placeholderData: keepPreviousData, staleTime: Infinity },
    ),
  );
  return q.data ?? {};
}
