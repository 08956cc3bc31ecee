"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { Conversation } from "./conversation";

function Skeleton() {
  return (
    <div
      aria-busy="true"
      aria-label="Loading the conversation"
      className="mx-auto flex w-full max-w-3xl flex-col gap-6 py-6"
    >
      {[72, 40, 88, 56].map((w, i) => (
        <div key={i} className={`flex gap-3 ${i % 2 ? "flex-row-reverse" : ""}`}>
          <span className="h-7 w-7 shrink-0 animate-pulse rounded-full bg-slate-200 dark:bg-slate-800" />
          <span className="h-14 animate-pulse rounded-2xl bg-slate-200 dark:bg-slate-800" style={{ width: `${w}%` }} />
        </div>
      ))}
    </div>
  );
}

/** Loads a consistent snapshot of the thread (and the agents, for labels), then hands over to the live conversation. */
export function ConversationScreen({ threadId, compact = false }: { threadId: string; compact?: boolean }) {
  const trpc = useTRPC();
  const snapshot = useQuery(
    trpc.chat.snapshot.queryOptions(
      { threadId },
      {
        staleTime: Infinity,
        gcTime: 0,
        refetchOnWindowFocus: false,
        // A thread that does not exist will not appear on a retry.
        retry: (n, err) => n < 1 && (err.data as { appCode?: string } | undefined)?.appCode !== "NOT_FOUND",
      },
    ),
  );
  const overview = useQuery(trpc.registry.overview.queryOptions());
  // A Try it thread of an unsaved draft: its agents as the draft defines them, over the saved ones.
  const agents = useMemo(
    () => new Map([...(overview.data?.agents ?? []), ...(snapshot.data?.draftAgents ?? [])].map((a) => [a.name, a])),
    [overview.data, snapshot.data?.draftAgents],
  );

  if (snapshot.isError) {
    const notFound = (snapshot.error.data as { appCode?: string } | undefined)?.appCode === "NOT_FOUND";
    return (
      <div
        role="alert"
        className="mx-auto max-w-xl rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100"
      >
        <p className="font-semibold">
          {notFound ? "This thread does not exist." : "The conversation could not be loaded."}
        </p>
        {!notFound ? <p className="mt-1">{snapshot.error.message}</p> : null}
        <Link href="/threads" className="mt-2 inline-block font-medium underline">
          Back to the threads
        </Link>
      </div>
    );
  }
  if (snapshot.isPending || overview.isPending) return <Skeleton />;
  return <Conversation key={`${threadId}:${snapshot.dataUpdatedAt}`} snapshot={snapshot.data} agents={agents} compact={compact} />;
}
