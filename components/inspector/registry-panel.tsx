"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useRef, useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { buttonClass } from "@/components/ui/button";

import { ConfirmButton } from "./confirm-button";
import type { NodeDetail } from "./types";

const button = buttonClass("secondary", "sm");

type Entry = NodeDetail["registry"]["entries"][number];

function MessageForm({ parentId, entry }: { parentId: string; entry: Entry }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const send = useMutation(
    trpc.inspector.messageChild.mutationOptions({
      onSuccess: () => {
        setText("");
        void queryClient.invalidateQueries({ queryKey: trpc.inspector.pathKey() });
      },
    }),
  );
  return (
    <form
      className="flex flex-col gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) send.mutate({ parentId, childId: entry.reference, message: text });
      }}
    >
      <label className="sr-only" htmlFor={`msg-${entry.reference}`}>
        Message to {entry.threadName ?? entry.name}
      </label>
      <div className="flex gap-2">
        <input
          id={`msg-${entry.reference}`}
          data-testid="child-message-input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="subagent_message, as the parent would send it"
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
        />
        <button type="submit" className={button} disabled={send.isPending || !text.trim()}>
          Send
        </button>
      </div>
      {send.error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          {send.error.message}
        </span>
      ) : null}
      {send.isSuccess ? <span className="text-xs text-emerald-700 dark:text-emerald-300">Queued on the child.</span> : null}
    </form>
  );
}

const EntryRow = memo(function EntryRow({ parentId, entry, onSelect }: { parentId: string; entry: Entry; onSelect: (id: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const terminate = useMutation(
    trpc.threads.terminate.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.inspector.pathKey() }),
    }),
  );
  const live = entry.status !== "terminated";
  return (
    <div data-testid="registry-entry" data-reference={entry.reference} className="flex flex-col gap-2 border-b border-slate-100 py-2 dark:border-slate-800">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <button type="button" className="font-medium underline-offset-2 hover:underline" onClick={() => onSelect(entry.reference)}>
          {entry.title ?? entry.name}
        </button>
        {entry.threadName ? <span className="text-slate-500 dark:text-slate-400">“{entry.threadName}”</span> : null}
        <span data-testid="registry-status" className="rounded bg-slate-100 px-1.5 text-xs dark:bg-slate-800">
          {entry.status}
        </span>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {entry.blocking ? "blocking" : "background"} · {entry.resumable ? "resumable" : "one-shot"} · {String(entry.parentCommunication ?? "implicit")}
        </span>
        <code className="ml-auto text-xs text-slate-500 dark:text-slate-400">{entry.reference}</code>
        {live ? (
          <ConfirmButton
            label="Terminate"
            question={`End ${entry.threadName ?? entry.name} for good?`}
            disabled={terminate.isPending}
            testId="terminate-child"
            onConfirm={() => terminate.mutate({ threadId: entry.reference })}
          />
        ) : null}
      </div>
      {entry.resumable && live ? <MessageForm parentId={parentId} entry={entry} /> : null}
    </div>
  );
});

/** The entries, virtualized: a parent with 200 children keeps a few dozen rows (and message forms) in the DOM. */
function EntryList({ parentId, entries, onSelect }: { parentId: string; entries: Entry[]; onSelect: (id: string) => void }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 88,
    getItemKey: (i) => entries[i]?.reference ?? i,
    overscan: 6,
  });
  return (
    <div ref={scrollRef} role="list" aria-label="Children" data-testid="registry-list" className="max-h-[60vh] overflow-y-auto" style={{ contain: "strict", height: Math.min(virtualizer.getTotalSize(), 600) || undefined }}>
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualizer.getVirtualItems().map((v) => (
          <div
            key={v.key}
            role="listitem"
            data-index={v.index}
            ref={virtualizer.measureElement}
            style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
          >
            <EntryRow parentId={parentId} entry={entries[v.index]!} onSelect={onSelect} />
          </div>
        ))}
      </div>
    </div>
  );
}

/** The registry as JSON, built only when opened (200 entries make a long text). */
function RegistryJson({ entries }: { entries: Entry[] }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-2 text-sm" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-slate-500 dark:text-slate-400">Registry as JSON</summary>
      {open ? <pre className="mt-1 max-h-[60vh] overflow-auto rounded-md bg-slate-100 p-2 text-xs dark:bg-slate-900">{JSON.stringify(entries, null, 2)}</pre> : null}
    </details>
  );
}

/** The thread's child registry: the system message text exactly as its model sees it, and the entries as data. */
export function RegistryPanel({ detail, onSelect }: { detail: NodeDetail; onSelect: (id: string) => void }) {
  const { entries, systemMessage } = detail.registry;
  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby="registry-text">
        <h4 id="registry-text" className="mb-1 text-sm font-semibold">
          What the model sees
        </h4>
        {systemMessage ? (
          <pre data-testid="registry-system-message" className="overflow-auto whitespace-pre-wrap rounded-md bg-slate-900 p-3 text-xs text-slate-100">
            {systemMessage}
          </pre>
        ) : (
          <p data-testid="registry-system-message-empty" className="text-sm text-slate-500 dark:text-slate-400">
            No registry message: this thread has no live resumable children, so its context has none.
          </p>
        )}
      </section>
      <section aria-labelledby="registry-data">
        <h4 id="registry-data" className="mb-1 text-sm font-semibold">
          Children ({entries.length})
        </h4>
        {entries.length === 0 ? <p className="text-sm text-slate-500 dark:text-slate-400">No children.</p> : null}
        {entries.length > 0 ? <EntryList parentId={detail.thread.id} entries={entries} onSelect={onSelect} /> : null}
        <RegistryJson entries={entries} />
      </section>
    </div>
  );
}
