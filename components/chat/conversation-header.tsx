"use client";

import Link from "next/link";
import { filesHref, inspectorHref } from "@/components/editor/thread-links";
import { useState } from "react";
import { shortId, visibleTags } from "@/components/threads/format";
import { StatusBadge } from "@/components/threads/status-badge";
import type { ThreadInfo, ThreadStatus } from "./types";
import type { ConnectionState } from "./use-conversation";

interface Props {
  thread: ThreadInfo;
  title: string;
  /** The active agent's title when a handoff moved the thread away from the agent it was created for. */
  handedTo: string | null;
  status: ThreadStatus;
  stopReason: string | null;
  connection: ConnectionState;
  showSilent: boolean;
  silentCount: number;
  onToggleSilent(): void;
  detailsOpen: boolean;
  onToggleDetails(): void;
  onTerminate(): void;
  terminating: boolean;
}

const button =
  "rounded-md border border-slate-300 px-2.5 py-1 text-xs font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800";

/** Title, live status, tags and the thread's actions. */
export function ConversationHeader(p: Props) {
  const [confirming, setConfirming] = useState(false);
  return (
    <header className="flex flex-col gap-2 border-b border-slate-200 px-3 pb-3 dark:border-slate-800 sm:px-4">
      <nav aria-label="Breadcrumb" className="flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
        <Link href="/threads" className="hover:text-slate-900 hover:underline dark:hover:text-white">
          ← Threads
        </Link>
        {p.thread.parent_id ? (
          <>
            <span aria-hidden>/</span>
            <Link
              href={`/threads/${p.thread.parent_id}`}
              data-testid="parent-link"
              className="hover:text-slate-900 hover:underline dark:hover:text-white"
            >
              Parent {shortId(p.thread.parent_id)}
            </Link>
          </>
        ) : null}
      </nav>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h1 className="min-w-0 truncate text-lg font-semibold" data-testid="thread-title">
          {p.title}
        </h1>
        <span className="font-mono text-xs text-slate-500 dark:text-slate-400" title={p.thread.id}>
          {shortId(p.thread.id)}
        </span>
        <StatusBadge status={p.status} stopReason={p.stopReason} child={!!p.thread.parent_id} />
        {p.handedTo ? (
          <span
            data-testid="active-agent"
            className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
          >
            now with {p.handedTo}
          </span>
        ) : null}
        {p.connection === "reconnecting" || p.connection === "error" ? (
          <span role="status" data-testid="connection" className="text-xs text-amber-700 dark:text-amber-300">
            {p.connection === "error" ? "Live updates stopped; reload to retry" : "Reconnecting…"}
          </span>
        ) : null}
        {visibleTags(p.thread.tags).length > 0 ? (
          <ul aria-label="Tags" className="flex flex-wrap gap-1">
            {visibleTags(p.thread.tags).map((t) => (
              <li
                key={t}
                className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200"
              >
                #{t}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <button
            type="button"
            aria-pressed={p.showSilent}
            onClick={p.onToggleSilent}
            data-testid="toggle-silent"
            className={button}
          >
            {p.showSilent ? "Hide" : "Show"} silent{p.silentCount > 0 ? ` (${p.silentCount})` : ""}
          </button>
          <Link href={inspectorHref(p.thread.id)} data-testid="open-inspector" className={button}>
            Inspector
          </Link>
          <Link href={filesHref(p.thread.id)} data-testid="open-files" className={button}>
            Files
          </Link>
          <button
            type="button"
            aria-expanded={p.detailsOpen}
            aria-controls="thread-side-panel"
            onClick={p.onToggleDetails}
            className={button}
          >
            {p.detailsOpen ? "Hide details" : "Usage & details"}
          </button>
          {p.status !== "terminated" ? (
            confirming ? (
              <span className="flex items-center gap-1 text-xs" role="group" aria-label="Confirm termination">
                <span>End this thread for good?</span>
                <button
                  type="button"
                  className={`${button} border-red-300 text-red-700 dark:border-red-800 dark:text-red-300`}
                  disabled={p.terminating}
                  onClick={() => {
                    p.onTerminate();
                    setConfirming(false);
                  }}
                >
                  Terminate
                </button>
                <button type="button" className={button} onClick={() => setConfirming(false)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button type="button" className={button} onClick={() => setConfirming(true)} data-testid="terminate">
                Terminate…
              </button>
            )
          ) : null}
        </div>
      </div>
    </header>
  );
}
