import Link from "next/link";
import { shortId } from "@/components/threads/format";
import type { ThreadInfo } from "./types";

/** On a fork: where it came from (and whether the message at the fork point was edited), linked. */
export function ForkOrigin({ thread }: { thread: ThreadInfo }) {
  const origin = thread.forked_from;
  if (!origin) return null;
  return (
    <p data-testid="fork-origin" className="px-3 pb-2 text-xs text-slate-500 dark:text-slate-400 sm:px-4">
      {origin.edited ? "Edited and re-run from " : "Forked from "}
      <Link href={`/threads/${origin.thread_id}`} className="font-mono text-indigo-600 hover:underline dark:text-indigo-400">
        {shortId(origin.thread_id)}
      </Link>
    </p>
  );
}
