"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc-provider";

const button =
  "rounded-md px-2.5 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50";

interface Approval {
  id: string;
  thread_id: string;
  tool_call_id: string;
  tool_name: string;
  arguments: Record<string, unknown>;
  expires_at: string | null;
  path: { thread_id: string; agent_id: string }[];
}

/**
 * Tool calls of this thread and its descendants waiting for a human decision: approve, approve with edited
 * arguments, or deny with a note the model reads. Polled while the thread runs (a waiting thread stays running).
 */
export function ApprovalCards({ threadId, running }: { threadId: string; running: boolean }) {
  const trpc = useTRPC();
  const approvals = useQuery(trpc.controls.approvals.queryOptions({ threadId }, { refetchInterval: running ? 2_000 : 15_000 }));
  const list = (approvals.data ?? []) as Approval[];
  if (list.length === 0) return null;
  return (
    <section aria-label="Tool calls awaiting approval" className="flex flex-col gap-2">
      {list.map((a) => (
        <ApprovalCard key={a.id} threadId={threadId} approval={a} />
      ))}
    </section>
  );
}

function ApprovalCard({ threadId, approval: a }: { threadId: string; approval: Approval }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const original = JSON.stringify(a.arguments, null, 2);
  const [editing, setEditing] = useState(false);
  const [args, setArgs] = useState(original);
  const [note, setNote] = useState("");
  const [argsError, setArgsError] = useState<string | null>(null);
  const decide = useMutation(
    trpc.controls.decide.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.controls.approvals.queryKey({ threadId }) }),
    }),
  );
  const approve = () => {
    let edited: Record<string, unknown> | undefined;
    if (editing && args.trim() !== original.trim()) {
      try {
        const parsed: unknown = JSON.parse(args);
        if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("the arguments must be a JSON object");
        edited = parsed as Record<string, unknown>;
      } catch (err) {
        setArgsError(err instanceof Error ? err.message : String(err));
        return;
      }
    }
    setArgsError(null);
    decide.mutate({ threadId, toolCallId: a.tool_call_id, decision: "approve", args: edited, note: note.trim() || undefined });
  };
  const deny = () => decide.mutate({ threadId, toolCallId: a.tool_call_id, decision: "deny", note: note.trim() || undefined });
  const via = a.path.length > 1 ? a.path.slice(1).map((h) => h.agent_id).join(" › ") : null;
  return (
    <div
      data-testid="approval-card"
      data-tool={a.tool_name}
      className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950/40"
    >
      <p className="font-medium">
        <span className="font-mono">{a.tool_name}</span> waits for your approval
        {via ? <span className="font-normal text-slate-600 dark:text-slate-300"> (in {via})</span> : null}
      </p>
      {a.expires_at ? <p className="text-xs text-slate-600 dark:text-slate-300">Denied automatically at {new Date(a.expires_at).toLocaleTimeString()} without a decision.</p> : null}
      {editing ? (
        <label className="flex flex-col gap-1 text-xs">
          Arguments (JSON)
          <textarea
            aria-label="Arguments"
            value={args}
            onChange={(e) => setArgs(e.target.value)}
            rows={Math.min(12, args.split("\n").length + 1)}
            className="rounded border border-slate-300 bg-white p-2 font-mono text-xs dark:border-slate-600 dark:bg-slate-900"
          />
        </label>
      ) : (
        <pre className="overflow-x-auto rounded bg-white/70 p-2 font-mono text-xs dark:bg-slate-900/70">{original}</pre>
      )}
      <input
        aria-label="Note"
        placeholder="Note (the model reads it when you deny)"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        className="rounded border border-slate-300 bg-white px-2 py-1 text-xs dark:border-slate-600 dark:bg-slate-900"
      />
      {argsError || decide.error ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {argsError ?? decide.error?.message}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={approve} disabled={decide.isPending} className={`${button} bg-emerald-600 text-white hover:bg-emerald-700`}>
          {editing ? "Approve with these arguments" : "Approve"}
        </button>
        {!editing ? (
          <button type="button" onClick={() => setEditing(true)} className={`${button} border border-slate-300 hover:bg-white dark:border-slate-600 dark:hover:bg-slate-800`}>
            Edit arguments
          </button>
        ) : null}
        <button type="button" onClick={deny} disabled={decide.isPending} className={`${button} bg-red-600 text-white hover:bg-red-700`}>
          Deny
        </button>
      </div>
    </div>
  );
}
