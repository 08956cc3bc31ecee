"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, type ReactNode } from "react";
import { formatCost, formatDuration } from "@/components/threads/format";
import { useTRPC } from "@/components/trpc-provider";
import { button } from "./button-styles";

function Block({ title, children, open = false, testId }: { title: string; children: ReactNode; open?: boolean; testId?: string }) {
  return (
    <details open={open} data-testid={testId} className="rounded border border-slate-200 dark:border-slate-700">
      <summary className="cursor-pointer px-2 py-1 text-sm font-medium">{title}</summary>
      <div className="border-t border-slate-200 p-2 dark:border-slate-700">{children}</div>
    </details>
  );
}

const pre = "overflow-auto whitespace-pre-wrap break-words text-xs";
const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));

/** One LLM request in full: system prompt, messages, tools offered, response and usage (secrets redacted). */
export function LogDialog({ logId, onClose }: { logId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.inspector.log.queryOptions({ logId }, { staleTime: Infinity }));
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  const l = q.data;
  const messages = l?.messages ?? [];
  const system = messages.filter((m) => m.role === "system" || m.role === "developer");
  const tools = l?.tools ?? [];
  return (
    <dialog
      ref={ref}
      data-testid="log-dialog"
      aria-labelledby="log-dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-auto w-[min(60rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="flex max-h-[85vh] flex-col gap-3 overflow-y-auto p-4">
        <div className="flex items-center gap-2">
          <h2 id="log-dialog-title" className="text-base font-semibold">
            LLM request {l ? `· ${l.model}` : ""}
          </h2>
          <button type="button" className={`${button} ml-auto`} onClick={onClose}>
            Close
          </button>
        </div>
        {q.isError ? <p role="alert">{q.error.message}</p> : null}
        {!l ? <p aria-busy="true">Loading…</p> : null}
        {l ? (
          <>
            <dl data-testid="log-usage" className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
              <dt className="text-slate-500">Model</dt>
              <dd className="font-mono">{l.modelId}</dd>
              <dt className="text-slate-500">Status</dt>
              <dd>{l.status}{l.attempt > 1 ? ` (attempt ${l.attempt})` : ""}</dd>
              <dt className="text-slate-500">Latency</dt>
              <dd>{l.latencyMs !== null ? formatDuration(l.latencyMs) : "–"}</dd>
              <dt className="text-slate-500">Time to first token</dt>
              <dd>{l.ttftMs !== null ? formatDuration(l.ttftMs) : "–"}</dd>
              <dt className="text-slate-500">Tokens in / out</dt>
              <dd>
                {l.usage.inputTokens} / {l.usage.outputTokens}
                {l.usage.cachedTokens ? ` (${l.usage.cachedTokens} cached)` : ""}
              </dd>
              <dt className="text-slate-500">Cost</dt>
              <dd>{formatCost(l.usage.cost)}</dd>
            </dl>
            {l.error ? <p className="text-sm text-red-700 dark:text-red-300">{text(l.error)}</p> : null}
            <Block title="System prompt" open testId="log-system">
              {system.map((m, i) => (
                <pre key={i} className={pre}>
                  {text(m.content)}
                </pre>
              ))}
            </Block>
            <Block title={`Messages (${messages.length})`} testId="log-messages">
              <ol className="flex flex-col gap-2">
                {messages.map((m, i) => (
                  <li key={i}>
                    <span className="text-xs font-semibold text-slate-500">{m.role}</span>
                    <pre className={pre}>{text(m.content ?? "")}</pre>
                  </li>
                ))}
              </ol>
            </Block>
            <Block title={`Tools offered (${tools.length})`} testId="log-tools">
              <ul className="flex flex-col gap-1 text-sm">
                {tools.map((t, i) => (
                  <li key={i}>
                    <span className="font-mono">{t.name}</span> <span className="text-slate-500">{t.description}</span>
                  </li>
                ))}
              </ul>
            </Block>
            <Block title="Response" open testId="log-response">
              <pre className={pre}>{text(l.response)}</pre>
            </Block>
            <Block title="Full request body">
              <pre className={pre}>{text(l.request)}</pre>
            </Block>
          </>
        ) : null}
      </div>
    </dialog>
  );
}
