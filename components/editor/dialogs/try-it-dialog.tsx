"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import type { SaveChange } from "@/shared/editor/save-change";
import type { SaveError } from "../save-errors";
import { saveErrorOf } from "../state/use-save-review";
import { chatHref, inspectorHref, newThreadHref } from "../thread-links";
import { dialogInput, Field, Modal, primaryButton, secondaryButton } from "./modal";

/**
 * Starts a thread with an agent: asks for the variables its graph declares, then docks its chat in the editor (or
 * opens it in the chat or the inspector). With unsaved changes and a `draft` (an editor that can save), the thread
 * runs the draft: the server checks it first (its issues are listed here and in the editor, each with its field) and
 * writes nothing. Without one it runs the saved definitions, and says so when edits are pending.
 */
export function TryItDialog({
  agent,
  pending,
  draft = null,
  onDraftError,
  onClose,
  onStarted,
}: {
  agent: string;
  pending: number;
  draft?: SaveChange[] | null;
  onDraftError?(error: SaveError): void;
  onClose(): void;
  onStarted?(threadId: string, fromDraft: boolean): void;
}) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.registry.overview.queryOptions());
  const fromDraft = draft !== null && draft.length > 0;
  // A new agent of the draft is not in the saved registry: it starts without the variables form.
  const summary = overview.data?.agents.find((a) => a.name === agent) ?? (fromDraft && overview.data ? { requiredVariables: [], variables: [] } : undefined);
  const [env, setEnv] = useState<Record<string, string>>({});
  const saved = useMutation(trpc.threads.create.mutationOptions());
  const drafted = useMutation(trpc.editor.tryDraft.mutationOptions());
  const create = fromDraft ? drafted : saved;
  const issues = fromDraft && drafted.error ? saveErrorOf(drafted.error).details : [];
  const required = new Set(summary?.requiredVariables.map((v) => v.name));
  const variables = [...(summary?.variables ?? [])].sort((a, b) => Number(required.has(b.name)) - Number(required.has(a.name)));
  const missing = [...required].filter((n) => !env[n]?.trim());
  const started = create.data;
  return (
    <Modal title={`Try ${agent}`} onClose={onClose} testId="try-it-dialog">
      {!summary ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {overview.isPending ? "Loading…" : `"${agent}" is not in the saved registry yet: save your changes first.`}
        </p>
      ) : started ? (
        <div className="flex flex-col gap-2 text-sm" data-testid="try-it-started">
          <p>
            Thread <span className="font-mono">{started.id}</span> started with {agent}.
          </p>
          <div className="flex gap-2">
            <Link className={primaryButton} href={chatHref(started.id)}>
              Open in the chat
            </Link>
            <Link className={secondaryButton} href={inspectorHref(started.id)}>
              Open in the inspector
            </Link>
          </div>
        </div>
      ) : (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (missing.length > 0) return;
            const types = Object.fromEntries(variables.filter((v) => env[v.name]).map((v) => [v.name, v.type]));
            const values = Object.fromEntries(Object.entries(env).filter(([, v]) => v.trim() !== ""));
            const input = { agent_id: agent, env: values, env_types: types };
            if (fromDraft) {
              drafted.mutate({ ...input, changes: draft }, { onSuccess: (t) => onStarted?.(t.id, true), onError: (e) => onDraftError?.(saveErrorOf(e)) });
            } else saved.mutate(input, { onSuccess: (t) => onStarted?.(t.id, false) });
          }}
        >
          {fromDraft ? (
            <p role="note" data-testid="try-it-draft" className="rounded border border-indigo-300 bg-indigo-50 px-2 py-1 text-sm text-indigo-900 dark:border-indigo-700 dark:bg-indigo-950 dark:text-indigo-100">
              The thread runs your unsaved draft ({pending} change{pending === 1 ? "" : "s"}), checked first; nothing is saved.
            </p>
          ) : pending > 0 ? (
            <p role="note" data-testid="try-it-pending" className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
              The thread runs the saved definitions: {pending} unsaved change{pending === 1 ? " is" : "s are"} not in it. Save first to try {pending === 1 ? "it" : "them"}.
            </p>
          ) : null}
          {variables.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">This agent&apos;s graph declares no variables.</p> : null}
          {variables.map((v) => (
            <Field key={v.name} label={`${v.name}${required.has(v.name) ? " (required)" : ""}`} hint={v.description || undefined}>
              <input
                type={v.type === "secret" ? "password" : "text"}
                autoComplete="off"
                value={env[v.name] ?? ""}
                required={required.has(v.name)}
                onChange={(e) => setEnv({ ...env, [v.name]: e.target.value })}
                className={`${dialogInput} font-mono`}
              />
            </Field>
          ))}
          {create.error ? (
            <div role="alert" data-testid="try-it-error" className="text-sm text-red-700 dark:text-red-300">
              <p>{create.error.message}</p>
              {issues.length > 0 ? (
                <ul className="mt-1 list-disc pl-5 text-xs">
                  {issues.map((d, i) => (
                    <li key={i}>
                      <span className="font-mono">
                        {d.file}
                        {d.path ? ` · ${d.path}` : ""}
                      </span>
                      : {d.message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          <div className="flex items-center justify-end gap-2">
            <Link className="mr-auto text-xs text-indigo-700 underline dark:text-indigo-300" href={newThreadHref(agent)}>
              Open the new-thread page instead
            </Link>
            <button type="button" className={secondaryButton} onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className={primaryButton} disabled={missing.length > 0 || create.isPending}>
              {create.isPending ? "Starting…" : "Start thread"}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
