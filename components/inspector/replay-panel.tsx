"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { formatCost, formatDuration } from "@/components/threads/format";
import { useTRPC } from "@/components/trpc-provider";
import { Button } from "@/components/ui/button";

interface Answer {
  model: string;
  modelId: string;
  status: string;
  error: string | null;
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  usage: { inputTokens: number; outputTokens: number; cachedTokens: number };
  cost: number;
  latencyMs: number | null;
}

const field = "rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900";

/**
 * Replay a logged request: as it was or with an edited body, on its model or another one; the old and the new answer
 * side by side (text, tool calls, tokens, cost, latency). The thread is not touched.
 */
export function ReplayPanel({ logId, model, models, request }: { logId: string; model: string; models: string[]; request: unknown }) {
  const trpc = useTRPC();
  const ids = { model: useId(), body: useId() };
  const original = JSON.stringify(request, null, 2);
  const [target, setTarget] = useState(model);
  const [text, setText] = useState(original);
  const [parseError, setParseError] = useState<string | null>(null);
  const replay = useMutation(trpc.inspector.replay.mutationOptions());
  const edited = text !== original;

  const run = () => {
    let body: Record<string, unknown> | undefined;
    if (edited) {
      try {
        const parsed = JSON.parse(text) as unknown;
        if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("the body must be a JSON object");
        body = parsed as Record<string, unknown>;
      } catch (err) {
        setParseError(`Request body: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
    }
    setParseError(null);
    replay.mutate({ logId, ...(target !== model ? { model: target } : {}), ...(body ? { body } : {}) });
  };

  return (
    <div className="flex flex-col gap-2" data-testid="replay-panel">
      <div className="flex flex-wrap items-end gap-2">
        <label htmlFor={ids.model} className="flex flex-col text-xs text-slate-600 dark:text-slate-300">
          Model
          <select id={ids.model} className={field} value={target} onChange={(e) => setTarget(e.target.value)} data-testid="replay-model">
            {(models.includes(model) ? models : [model, ...models]).map((m) => (
              <option key={m} value={m}>
                {m}
                {m === model ? " (as logged)" : ""}
              </option>
            ))}
          </select>
        </label>
        <Button variant="primary" size="sm" onClick={run} disabled={replay.isPending} data-testid="replay-run">
          {replay.isPending ? "Replaying…" : edited ? "Replay edited request" : "Replay"}
        </Button>
        {edited ? (
          <Button size="sm" variant="ghost" onClick={() => setText(original)}>
            Reset body
          </Button>
        ) : null}
      </div>
      <label htmlFor={ids.body} className="text-xs text-slate-600 dark:text-slate-300">
        Request body (edit to replay a variant)
      </label>
      <textarea
        id={ids.body}
        className={`${field} h-40 font-mono text-xs`}
        value={text}
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        data-testid="replay-body"
      />
      {parseError ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{parseError}</p> : null}
      {replay.isError ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{replay.error.message}</p> : null}
      {replay.data ? (
        <div className="grid grid-cols-1 gap-2 md:grid-cols-2" data-testid="replay-compare">
          <AnswerColumn title="Logged" answer={replay.data.original} testId="replay-original" />
          <AnswerColumn title={replay.data.edited ? "Replay (edited request)" : "Replay"} answer={replay.data.replay} testId="replay-new" />
        </div>
      ) : null}
    </div>
  );
}

function AnswerColumn({ title, answer, testId }: { title: string; answer: Answer; testId: string }) {
  return (
    <section className="rounded border border-slate-200 p-2 text-sm dark:border-slate-700" data-testid={testId} aria-label={title}>
      <h4 className="font-medium">
        {title} · <span className="font-mono">{answer.model}</span>
      </h4>
      <dl className="mt-1 grid grid-cols-2 gap-x-2 text-xs">
        <dt className="text-slate-600 dark:text-slate-300">Tokens in / out</dt>
        <dd>
          {answer.usage.inputTokens} / {answer.usage.outputTokens}
        </dd>
        <dt className="text-slate-600 dark:text-slate-300">Cost</dt>
        <dd>{formatCost(answer.cost)}</dd>
        <dt className="text-slate-600 dark:text-slate-300">Latency</dt>
        <dd>{answer.latencyMs !== null ? formatDuration(answer.latencyMs) : "–"}</dd>
      </dl>
      {answer.error ? <p className="mt-1 text-xs text-red-700 dark:text-red-300">{answer.error}</p> : null}
      {answer.content ? <pre className="mt-1 whitespace-pre-wrap break-words text-xs" data-testid={`${testId}-content`}>{answer.content}</pre> : null}
      {answer.toolCalls.length > 0 ? (
        <ul className="mt-1 text-xs" data-testid={`${testId}-tools`}>
          {answer.toolCalls.map((c) => (
            <li key={c.id} className="font-mono">
              {c.name}({c.arguments})
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
