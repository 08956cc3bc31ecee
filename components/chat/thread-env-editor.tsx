"use client";

import { useState } from "react";
import { AgentVariablesPanel } from "../admin/agent-variables-panel";
import { VariablesForm } from "../admin/variables-form";

/** Threads whose editor is open: it stays open when the conversation re-renders after a save. */
const openFor = new Set<string>();

/** Thread settings: edit the thread's own variables, and see where each declared variable of its agent comes from. */
export function ThreadEnvEditor({ threadId, agent }: { threadId: string; agent: string }) {
  const [open, setOpen] = useState(() => openFor.has(threadId));
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => {
          openFor.add(threadId);
          setOpen(true);
        }}
        className="self-start rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Edit thread variables
      </button>
    );
  }
  return (
    <div className="flex flex-col gap-4" data-testid="thread-env-editor">
      <VariablesForm scope="thread" threadId={threadId} />
      <AgentVariablesPanel threadId={threadId} agent={agent} />
    </div>
  );
}
