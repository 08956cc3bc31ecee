"use client";

import Link from "next/link";
import { ConversationScreen } from "@/components/chat/conversation-screen";
import { chatHref, inspectorHref } from "./thread-links";

/** A thread started with "Try it", its chat docked beside the graph: talk to the agent without leaving the editor. */
export function TryDock({ agent, threadId, draft = false, onClose }: { agent: string; threadId: string; draft?: boolean; onClose(): void }) {
  return (
    <aside aria-label={`Try ${agent}`} data-testid="try-dock" data-thread={threadId} className="flex w-[32rem] min-w-0 shrink-0 flex-col border-l border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-1.5 text-sm dark:border-slate-800">
        <h2 className="font-semibold">
          Try <span className="font-mono">{agent}</span>
        </h2>
        {draft ? (
          <span data-testid="try-dock-draft" title="This thread runs the unsaved draft it was started with; later edits are not in it." className="rounded bg-indigo-100 px-1.5 text-xs text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100">
            unsaved draft
          </span>
        ) : null}
        <Link className="text-xs text-indigo-700 underline dark:text-indigo-300" href={chatHref(threadId)}>
          Open in the chat
        </Link>
        <Link className="text-xs text-indigo-700 underline dark:text-indigo-300" href={inspectorHref(threadId)}>
          Inspector
        </Link>
        <button type="button" aria-label="Close the chat" onClick={onClose} className="ml-auto rounded px-1 hover:bg-slate-100 dark:hover:bg-slate-800">
          ✕
        </button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-2">
        <ConversationScreen threadId={threadId} compact />
      </div>
    </aside>
  );
}
