"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { shortId } from "@/components/threads/format";
import { useTRPC } from "@/components/trpc-provider";
import type { ThreadInfo } from "./types";

const link = "font-mono text-indigo-700 hover:underline dark:text-indigo-300";

/**
 * A thread's fork lineage: where a fork came from (and whether the message at the fork point was edited), and the
 * forks made from this thread, each linked.
 */
export function ForkOrigin({ thread }: { thread: ThreadInfo }) {
  const trpc = useTRPC();
  const origin = thread.forked_from;
  const forks = useQuery(trpc.chat.forks.queryOptions({ threadId: thread.id }, { staleTime: 5_000, refetchOnWindowFocus: true }));
  const list = forks.data ?? [];
  if (!origin && list.length === 0) return null;
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1 px-3 pb-2 text-xs text-slate-600 sm:px-4 dark:text-slate-300">
      {origin ? (
        <p data-testid="fork-origin">
          {origin.regenerated_message_id ? "Regenerated from " : origin.edited ? "Edited and re-run from " : "Forked from "}
          <Link href={`/threads/${origin.thread_id}`} className={link}>
            {shortId(origin.thread_id)}
          </Link>
        </p>
      ) : null}
      {list.length > 0 ? (
        <nav aria-label="Forks of this thread" data-testid="fork-list" className="flex flex-wrap items-center gap-x-2">
          <span>
            {list.length === 1 ? "1 fork:" : `${list.length} forks:`}
          </span>
          {list.map((f) => (
            <Link key={f.id} href={`/threads/${f.id}`} className={link} title={f.regenerated ? "regenerated" : f.edited ? "edited and re-run" : "forked"}>
              {shortId(f.id)}
              {f.regenerated ? " (regenerated)" : f.edited ? " (edited)" : ""}
            </Link>
          ))}
        </nav>
      ) : null}
    </div>
  );
}
