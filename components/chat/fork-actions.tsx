"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { ChatMessage } from "./types";

const link =
  "rounded px-1.5 py-0.5 text-xs text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white";

/**
 * "Fork from here" (a new thread with the history up to this message), on user and assistant messages "Edit and
 * re-run" (the same with this message's text replaced; the fork answers it), and on assistant replies "Regenerate" (a
 * fork at the message before the reply, which answers it again). The original thread is never changed.
 */
export function ForkActions({ threadId, message }: { threadId: string; message: ChatMessage }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(message.content ?? "");
  const fork = useMutation(trpc.controls.fork.mutationOptions({ onSuccess: (t) => router.push(`/threads/${t.id}`) }));
  const editable = message.role === "user" || message.role === "assistant";
  const remove = useMutation(trpc.threads.deleteMessage.mutationOptions());
  const calls = message.tool_calls?.length ?? 0;
  return (
    <div className="flex flex-col gap-1" data-testid="fork-actions">
      {/* Full opacity: dimmed text would fall below the contrast the axe checks require. */}
      <div className="flex gap-1">
        <button type="button" className={link} disabled={fork.isPending} onClick={() => fork.mutate({ threadId, messageId: message.id })}>
          Fork from here
        </button>
        {editable ? (
          <button type="button" className={link} onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
            Edit and re-run
          </button>
        ) : null}
        {message.role === "assistant" ? (
          <button
            type="button"
            className={link}
            disabled={fork.isPending}
            title="Answer the message before this reply again, in a new branch; this thread stays as it is"
            onClick={() => fork.mutate({ threadId, messageId: message.id, regenerate: true })}
          >
            Regenerate
          </button>
        ) : null}
        {editable ? (
          <ConfirmAction
            label="Delete"
            triggerClassName={link}
            disabled={remove.isPending}
            title="Delete this message?"
            description={
              calls > 0
                ? `The message and the results of its ${calls} tool call${calls === 1 ? "" : "s"} are removed from this thread; the model will not see them again. To keep them, fork instead.`
                : "The message is removed from this thread; the model will not see it again. To keep it, fork instead."
            }
            confirmLabel="Delete"
            onConfirm={() => remove.mutate({ threadId, messageId: message.id })}
          />
        ) : null}
      </div>
      {editing ? (
        <form
          className="flex flex-col gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) fork.mutate({ threadId, messageId: message.id, edit: { content: text } });
          }}
        >
          <textarea
            aria-label="Edited message"
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            className="rounded border border-slate-300 bg-white p-2 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          />
          <button type="submit" disabled={fork.isPending || !text.trim()} className={`${link} self-start border border-slate-300 dark:border-slate-600`}>
            Re-run in a fork
          </button>
        </form>
      ) : null}
      {fork.error || remove.error ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {fork.error?.message ?? remove.error?.message}
        </p>
      ) : null}
    </div>
  );
}
