import { memo } from "react";
import { formatCost, formatDuration, shortId } from "@/components/threads/format";
import type { Timeline, TimelineItem } from "./types";

export const TIMELINE_ROW = 30;

function threadLabel(t: Timeline["threads"][string] | undefined, id: string) {
  return t ? `${t.agent}${t.name ? ` “${t.name}”` : ""}` : shortId(id);
}

/** One LLM request or tool call on the subtree's time axis; an LLM request opens its full log. */
export const TimelineRow = memo(function TimelineRow({
  item: i,
  thread,
  start,
  span,
  onOpen,
}: {
  item: TimelineItem;
  thread: Timeline["threads"][string] | undefined;
  start: number;
  span: number;
  onOpen: (logId: string) => void;
}) {
  const left = ((i.start - start) / span) * 100;
  const width = Math.max(0.4, (((i.end ?? Date.now()) - i.start) / span) * 100);
  return (
    <tr
      data-testid={i.kind === "llm" ? "timeline-llm" : "timeline-tool"}
      data-thread={i.threadId}
      style={{ height: TIMELINE_ROW }}
      // The whole row of a request opens its log (the label's button is the keyboard's way in).
      onClick={i.kind === "llm" ? () => onOpen(i.id) : undefined}
      className={`border-t border-slate-100 dark:border-slate-800 ${i.kind === "llm" ? "cursor-pointer hover:bg-indigo-50/60 dark:hover:bg-indigo-950/40" : ""}`}
    >
      <td className="max-w-48 truncate px-2 py-1 text-xs">{threadLabel(thread, i.threadId)}</td>
      <td className="truncate px-2 py-1">
        {i.kind === "llm" ? (
          <button
            type="button"
            className="font-mono text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
            onClick={(e) => {
              e.stopPropagation();
              onOpen(i.id);
            }}
          >
            {i.label}
            {i.side ? ` · side ${i.side}` : ""}
          </button>
        ) : (
          <span className="font-mono">⚙ {i.label}</span>
        )}
        {i.kind === "tool" && i.attempt > 1 ? (
          <span
            data-testid="timeline-rerun"
            title={`Attempt ${i.attempt}`}
            className="ml-1 text-xs text-amber-700 dark:text-amber-300"
          >
            re-run after a restart
          </span>
        ) : null}
        {i.status === "error" || i.status === "interrupted" ? (
          <span className="ml-1 text-xs text-red-700 dark:text-red-300">{i.status}</span>
        ) : null}
      </td>
      <td className="px-2 py-1">
        <div className="relative h-3 overflow-hidden rounded bg-slate-100 dark:bg-slate-800">
          <div
            className={`absolute top-0 h-3 rounded ${i.kind === "llm" ? "bg-indigo-500" : "bg-amber-500"}`}
            style={{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }}
            title={new Date(i.start).toLocaleTimeString()}
          />
        </div>
      </td>
      <td className="px-2 py-1 text-right tabular-nums" data-testid="timeline-duration">
        {i.end ? formatDuration(i.end - i.start) : "running"}
      </td>
      <td className="px-2 py-1 text-right tabular-nums" data-testid="timeline-ttft">
        {i.kind === "llm" && i.ttftMs !== null ? formatDuration(i.ttftMs) : ""}
      </td>
      <td className="px-2 py-1 text-right tabular-nums" data-testid="timeline-tokens">
        {i.kind === "llm" ? `${i.inputTokens} / ${i.outputTokens}` : ""}
      </td>
      <td className="px-2 py-1 text-right tabular-nums" data-testid="timeline-cost">
        {i.kind === "llm" ? formatCost(i.cost) : ""}
      </td>
    </tr>
  );
});
