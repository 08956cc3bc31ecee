"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { button } from "./button-styles";
import { ConfirmButton } from "./confirm-button";
import type { NodeDetail } from "./types";

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

function EntryRow({ parentId, entry, onSelect }: { parentId: string; entry: Entry; onSelect: (id: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const terminate = useMutation(
    trpc.threads.terminate.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.inspector.pathKey() }),
    }),
  );
  const live = entry.status !== "terminated";
  return (
    <li data-testid="registry-entry" data-reference={entry.reference} className="flex flex-col gap-2 py-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <button type="button" className="font-medium underline-offset-2 hover:underline" onClick={() => onSelect(entry.reference)}>
          {entry.title ?? entry.name}
        </button>
        {entry.threadName ? <span className="text-slate-500">“{entry.threadName}”</span> : null}
        <span data-testid="registry-status" className="rounded bg-slate-100 px-1.5 text-xs dark:bg-slate-800">
          {entry.status}
        </span>
        <span className="text-xs text-slate-500">
          {entry.blocking ? "blocking" : "background"} · {entry.resumable ? "resumable" : "one-shot"} · {String(entry.parentCommunication ?? "implicit")}
        </span>
        <code className="ml-auto text-xs text-slate-500">{entry.reference}</code>
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
    </li>
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
          <p data-testid="registry-system-message-empty" className="text-sm text-slate-500">
            No registry message: this thread has no live resumable children, so its context has none.
          </p>
        )}
      </section>
      <section aria-labelledby="registry-data">
        <h4 id="registry-data" className="mb-1 text-sm font-semibold">
          Children ({entries.length})
        </h4>
        {entries.length === 0 ? <p className="text-sm text-slate-500">No children.</p> : null}
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {entries.map((e) => (
            <EntryRow key={e.reference} parentId={detail.thread.id} entry={e} onSelect={onSelect} />
          ))}
        </ul>
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer text-slate-500">Registry as JSON</summary>
          <pre className="mt-1 overflow-auto rounded-md bg-slate-100 p-2 text-xs dark:bg-slate-900">{JSON.stringify(entries, null, 2)}</pre>
        </details>
      </section>
    </div>
  );
}
