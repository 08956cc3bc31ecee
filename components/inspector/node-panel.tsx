"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { memo, useState } from "react";
import { chatHref } from "@/components/editor/thread-links";
import { useTRPC } from "@/components/trpc-provider";
import { RegistryPanel } from "./registry-panel";
import { EnvPanel, FilesPanel, QueuePanel } from "./resources-panel";
import { Tabs } from "@/components/ui/tabs";
import { ThreadControls } from "./thread-controls";
import { Transcript } from "./transcript";
import { VariablesForm } from "./variables-form";

type Tab = "conversation" | "registry" | "files" | "queue" | "env";

/**
 * The selected thread: header with controls, pending variable forms, then its conversation and resources. Memoized:
 * a live change elsewhere in the tree does not re-render it (its own query refetches when its thread changes).
 */
export const NodePanel = memo(function NodePanel({ threadId, onSelect }: { threadId: string; onSelect: (id: string) => void }) {
  const trpc = useTRPC();
  const [tab, setTab] = useState<Tab>("conversation");
  const q = useQuery(trpc.inspector.node.queryOptions({ threadId }, { placeholderData: keepPreviousData, staleTime: 500 }));
  if (q.isError) return <p role="alert" className="text-sm text-red-700">{q.error.message}</p>;
  if (!q.data) return <p className="text-sm text-slate-500 dark:text-slate-400" aria-busy="true">Loading the thread…</p>;
  const d = q.data;
  const e = d.entry;
  return (
    <section data-testid="node-panel" data-thread={d.thread.id} aria-label="Selected thread" className="flex min-w-0 flex-col gap-3">
      <header className="flex flex-col gap-2">
        <div className="flex flex-wrap items-baseline gap-2">
          <h3 data-testid="node-title" className="text-lg font-semibold">
            {d.agent.title}
          </h3>
          {d.thread.name ? <span className="text-slate-500 dark:text-slate-400">“{d.thread.name}”</span> : null}
          <span data-testid="node-thread-status" className="rounded bg-slate-100 px-1.5 text-xs dark:bg-slate-800">
            thread {d.thread.status}
            {d.thread.stop_reason ? ` · ${d.thread.stop_reason}` : ""}
          </span>
          {e ? (
            <span data-testid="node-registry-status" className="rounded bg-sky-50 px-1.5 text-xs text-sky-900 dark:bg-sky-950 dark:text-sky-100">
              in parent&apos;s registry: {e.status}
            </span>
          ) : null}
          <Link href={chatHref(d.thread.id)} className="ml-auto text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
            Open chat
          </Link>
        </div>
        {e ? (
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Spawned by <span className="font-mono">{e.toolName}</span> · {e.blocking ? "blocking" : "background"} ·{" "}
            {e.resumable ? `resumable (messages go to ${e.receives === "side_b" ? d.agent.labels.b : d.agent.labels.a})` : "one-shot"} ·{" "}
            {String(e.parentCommunication ?? "implicit")}
            {e.immediate ? " · immediate" : ""}
            {e.optional ? ` · optional (${e.optional})` : ""}
            {" · "}
            <button type="button" className="underline-offset-2 hover:underline" onClick={() => d.thread.parent_id && onSelect(d.thread.parent_id)}>
              go to parent
            </button>
          </p>
        ) : null}
        <ThreadControls threadId={d.thread.id} status={d.thread.status} />
      </header>
      {d.variableRequests.map((r) => (
        <VariablesForm key={r.requestId} request={r} />
      ))}
      <Tabs<Tab>
        label="Thread details"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "conversation", label: "Conversation", count: d.totalMessages },
          { id: "registry", label: "Registry", count: d.registry.entries.length },
          { id: "files", label: "Files", count: d.files.length },
          { id: "queue", label: "Queue & effects", count: d.queue.filter((x) => x.status === "pending").length + d.effects.length },
          { id: "env", label: "Env", count: Object.keys(d.thread.env ?? {}).length },
        ]}
      >
        {tab === "conversation" ? <Transcript detail={d} /> : null}
        {tab === "registry" ? <RegistryPanel detail={d} onSelect={onSelect} /> : null}
        {tab === "files" ? <FilesPanel detail={d} onSelect={onSelect} /> : null}
        {tab === "queue" ? <QueuePanel detail={d} /> : null}
        {tab === "env" ? <EnvPanel detail={d} /> : null}
      </Tabs>
    </section>
  );
});
