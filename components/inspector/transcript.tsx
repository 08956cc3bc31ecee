"use client";

import { useMemo } from "react";
import { Markdown } from "@/components/chat/markdown";
import { MessageSources } from "@/components/chat/message-sources";
import { ProviderToolCalls } from "@/components/chat/provider-tool-calls";
import { transcript, type TranscriptEntry } from "./transcript-model";
import type { NodeDetail } from "./types";

const AUTHOR_TONE = {
  a: "text-indigo-700 dark:text-indigo-300",
  b: "text-amber-700 dark:text-amber-300",
  none: "text-slate-700 dark:text-slate-300",
};

const KIND_LABEL: Record<string, string> = {
  tool_result: "result of the blocking call",
  initiated: "spawn acknowledged (tool result)",
  notify: "notifyParent note",
  report: "queued report",
};

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

function DirectionBadge({ direction }: { direction: TranscriptEntry["direction"] }) {
  if (!direction) return null;
  return (
    <span
      data-testid="message-direction"
      data-direction={direction}
      className="rounded bg-violet-100 px-1.5 text-[0.7rem] font-medium text-violet-800 dark:bg-violet-950 dark:text-violet-200"
    >
      {direction === "from_parent" ? "↓ from parent" : "↑ from a child"}
    </span>
  );
}

function Entry({ e }: { e: TranscriptEntry }) {
  const m = e.message;
  return (
    <li
      data-testid="transcript-message"
      data-role={m.role}
      data-side={e.side ?? ""}
      data-silent={m.silent ? "true" : "false"}
      className="flex flex-col gap-1 border-b border-slate-100 py-2 last:border-0 dark:border-slate-800"
    >
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span data-testid="message-author" className={`font-semibold ${AUTHOR_TONE[e.side ?? "none"]}`}>
          {e.author}
        </span>
        <DirectionBadge direction={e.direction} />
        {m.silent ? <span className="rounded bg-slate-200 px-1.5 text-[0.7rem] dark:bg-slate-700">silent</span> : null}
        <time className="text-slate-500 dark:text-slate-400">{new Date(m.created_at / 1000).toLocaleTimeString()}</time>
      </div>
      {m.content ? (
        m.role === "tool" ? (
          <p data-testid="message-content" className="whitespace-pre-wrap break-words text-sm">
            {m.content}
          </p>
        ) : (
          // Replies and briefs are markdown: rendered as the chat renders them (raw HTML stays text).
          <div data-testid="message-content" data-markdown="true" className="min-w-0 break-words text-sm">
            <Markdown text={m.content} />
          </div>
        )
      ) : null}
      <ProviderToolCalls metadata={m.metadata} />
      <MessageSources metadata={m.metadata} />
      {(m.tool_calls ?? []).map((c) => {
        const r = e.results.get(c.id);
        return (
          <details key={c.id} data-testid="transcript-tool" data-tool={c.function.name} className="rounded border border-slate-200 text-sm dark:border-slate-700">
            <summary className="cursor-pointer px-2 py-1">
              <span className="font-mono">{c.function.name}</span>{" "}
              <span className={r?.tool_status === "error" ? "text-red-700 dark:text-red-300" : "text-slate-600 dark:text-slate-400"}>
                {r ? (r.tool_status === "error" ? "✗ error" : "✓ done") : "no result yet"}
              </span>
            </summary>
            <div className="flex flex-col gap-1 border-t border-slate-200 px-2 py-1 dark:border-slate-700">
              <span className="text-xs font-medium text-slate-500 dark:text-slate-400">Arguments</span>
              <pre className="overflow-auto whitespace-pre-wrap text-xs">{pretty(c.function.arguments)}</pre>
              {r ? (
                <>
                  <span className="text-xs font-medium text-slate-500 dark:text-slate-400">Result</span>
                  <pre data-testid="tool-result" className="overflow-auto whitespace-pre-wrap text-xs">
                    {r.content}
                  </pre>
                  {typeof r.metadata?.stack === "string" ? (
                    <>
                      {/* The stack the tool returned: kept for debugging, never sent to the model. */}
                      <span className="text-xs font-medium text-slate-500 dark:text-slate-400">Stack (not sent to the model)</span>
                      <pre data-testid="tool-stack" className="overflow-auto whitespace-pre-wrap text-xs text-slate-500 dark:text-slate-400">
                        {r.metadata.stack}
                      </pre>
                    </>
                  ) : null}
                </>
              ) : null}
            </div>
          </details>
        );
      })}
    </li>
  );
}

/** The selected thread's conversation, both sides labelled, tool calls with their results, silent messages marked. */
export function Transcript({ detail }: { detail: NodeDetail }) {
  const entries = useMemo(() => transcript(detail), [detail]);
  return (
    <div className="flex flex-col gap-3">
      {detail.totalMessages > detail.messages.length ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Showing the latest {detail.messages.length} of {detail.totalMessages} messages.
        </p>
      ) : null}
      {entries.length === 0 ? <p className="text-sm text-slate-500 dark:text-slate-400">No messages yet.</p> : null}
      <ol data-testid="transcript" className="flex flex-col">
        {entries.map((e) => (
          <Entry key={e.message.id} e={e} />
        ))}
      </ol>
      {detail.entry ? (
        <section aria-label="Sent to the parent" data-testid="to-parent" className="rounded-lg border border-violet-200 p-3 dark:border-violet-900">
          <h4 className="mb-1 text-sm font-semibold">Sent to the parent</h4>
          {detail.toParent.length === 0 ? <p className="text-sm text-slate-500 dark:text-slate-400">Nothing yet.</p> : null}
          <ul className="flex flex-col gap-2">
            {detail.toParent.map((m) => (
              <li key={m.id} data-testid="to-parent-message" data-kind={m.kind} className="text-sm">
                <span className="rounded bg-violet-100 px-1.5 text-[0.7rem] font-medium text-violet-800 dark:bg-violet-950 dark:text-violet-200">
                  ↑ to parent ·{" "}
                  {KIND_LABEL[m.kind]}
                </span>
                <p className="mt-1 whitespace-pre-wrap break-words">{m.content}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
