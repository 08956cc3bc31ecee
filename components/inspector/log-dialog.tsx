"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, type ReactNode } from "react";
import { CopyButton } from "@/components/chat/copy-button";
import { formatCost, formatDuration } from "@/components/threads/format";
import { useTRPC } from "@/components/trpc-provider";
import { Button, buttonClass } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { ContextMeter } from "./context-meter";
import { curlCommand } from "./curl";
import { ReplayPanel } from "./replay-panel";

function Block({
  title,
  children,
  open = false,
  testId,
  actions,
}: {
  title: string;
  children: ReactNode;
  open?: boolean;
  testId?: string;
  actions?: ReactNode;
}) {
  return (
    <details open={open} data-testid={testId} className="rounded border border-slate-200 dark:border-slate-700">
      <summary className="cursor-pointer px-2 py-1 text-sm font-medium">{title}</summary>
      <div className="flex flex-col gap-2 border-t border-slate-200 p-2 dark:border-slate-700">
        {actions ? <div className="flex gap-2">{actions}</div> : null}
        {children}
      </div>
    </details>
  );
}

const pre = "overflow-auto whitespace-pre-wrap break-words text-xs";
const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));
const copyClass = buttonClass("secondary", "xs");

/**
 * One LLM request in full: usage and the share of the context window it used, system prompt, messages, tools offered,
 * response, and the exact body sent to the provider (secrets redacted), which copies as JSON or as a cURL command.
 * Previous/next (buttons, or the [ and ] keys) step through the thread's requests.
 */
export function LogDialog({
  logId,
  onClose,
  onNavigate,
}: {
  logId: string;
  onClose: () => void;
  onNavigate: (logId: string) => void;
}) {
  const trpc = useTRPC();
  const q = useQuery(trpc.inspector.log.queryOptions({ logId }, { staleTime: Infinity }));
  const l = q.data;
  const prevId = l?.neighbors.prevId ?? null;
  const nextId = l?.neighbors.nextId ?? null;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "[" && prevId) onNavigate(prevId);
      if (e.key === "]" && nextId) onNavigate(nextId);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [prevId, nextId, onNavigate]);
  const messages = l?.messages ?? [];
  const system = messages.filter((m) => m.role === "system" || m.role === "developer");
  const tools = l?.tools ?? [];
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent
        data-testid="log-dialog"
        title={`LLM request${l ? ` · ${l.model}` : ""}`}
        actions={
          <>
            <span className="text-xs tabular-nums text-slate-500 dark:text-slate-400" data-testid="log-position">
              {l ? `${l.neighbors.index + 1} of ${l.neighbors.total} in this thread` : ""}
            </span>
            <Button
              size="sm"
              disabled={!prevId}
              onClick={() => prevId && onNavigate(prevId)}
              data-testid="log-prev"
              aria-keyshortcuts="["
              title="Previous request ([)"
            >
              ← Previous
            </Button>
            <Button
              size="sm"
              disabled={!nextId}
              onClick={() => nextId && onNavigate(nextId)}
              data-testid="log-next"
              aria-keyshortcuts="]"
              title="Next request (])"
            >
              Next →
            </Button>
            {l ? (
              <CopyButton
                text={curlCommand(l.endpoint.url, l.endpoint.apiKeyEnv, l.request)}
                label="Copy as cURL"
                className={copyClass}
              />
            ) : null}
          </>
        }
      >
        <div className="flex flex-col gap-3">
          {q.isError ? <p role="alert">{q.error.message}</p> : null}
          {!l ? <p aria-busy="true">Loading…</p> : null}
          {l ? (
            <>
              <dl data-testid="log-usage" className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
                <dt className="text-slate-500 dark:text-slate-400">Model</dt>
                <dd className="font-mono">{l.modelId}</dd>
                <dt className="text-slate-500 dark:text-slate-400">Status</dt>
                <dd>
                  {l.status}
                  {l.attempt > 1 ? ` (attempt ${l.attempt})` : ""}
                </dd>
                <dt className="text-slate-500 dark:text-slate-400">Latency</dt>
                <dd>{l.latencyMs !== null ? formatDuration(l.latencyMs) : "–"}</dd>
                <dt className="text-slate-500 dark:text-slate-400">Time to first token</dt>
                <dd>{l.ttftMs !== null ? formatDuration(l.ttftMs) : "–"}</dd>
                <dt className="text-slate-500 dark:text-slate-400">Tokens in / out</dt>
                <dd>
                  {l.usage.inputTokens} / {l.usage.outputTokens}
                  {l.usage.cachedTokens ? ` (${l.usage.cachedTokens} cached)` : ""}
                </dd>
                <dt className="text-slate-500 dark:text-slate-400">Cost</dt>
                <dd>{formatCost(l.usage.cost)}</dd>
              </dl>
              <ContextMeter used={l.usage.inputTokens} window={l.contextWindow} />
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
                      <span className="text-xs font-semibold text-slate-500 dark:text-slate-400">{m.role}</span>
                      <pre className={pre}>{text(m.content ?? "")}</pre>
                    </li>
                  ))}
                </ol>
              </Block>
              <Block title={`Tools offered (${tools.length})`} testId="log-tools">
                <ul className="flex flex-col gap-1 text-sm">
                  {tools.map((t, i) => (
                    <li key={i}>
                      <span className="font-mono">{t.name}</span>{" "}
                      <span className="text-slate-500 dark:text-slate-400">{t.description}</span>
                    </li>
                  ))}
                </ul>
              </Block>
              <Block title="Response" open testId="log-response">
                <pre className={pre}>{text(l.response)}</pre>
              </Block>
              <Block title="Replay this request" testId="log-replay">
                <ReplayPanel key={l.id} logId={l.id} model={l.model} models={l.models} request={l.request} />
              </Block>
              <Block
                title={`As sent to the provider (POST ${l.endpoint.url})`}
                testId="log-provider-body"
                actions={
                  <CopyButton text={JSON.stringify(l.request, null, 2)} label="Copy JSON" className={copyClass} />
                }
              >
                <pre data-testid="log-provider-json" className={pre}>
                  {JSON.stringify(l.request, null, 2)}
                </pre>
              </Block>
            </>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
