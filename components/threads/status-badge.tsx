import type { ThreadStatus } from "@/components/chat/types";
import { threadOutcome, type OutcomeTone } from "./outcome";

const styles: Record<OutcomeTone, { dot: string; text: string }> = {
  running: {
    dot: "bg-emerald-500 animate-pulse",
    text: "text-emerald-800 dark:text-emerald-200 bg-emerald-50 dark:bg-emerald-950/60",
  },
  waiting: { dot: "bg-amber-500", text: "text-amber-900 dark:text-amber-100 bg-amber-50 dark:bg-amber-950/60" },
  success: {
    dot: "bg-emerald-600",
    text: "text-emerald-800 dark:text-emerald-200 bg-emerald-50 dark:bg-emerald-950/60",
  },
  failure: { dot: "bg-red-500", text: "text-red-800 dark:text-red-200 bg-red-50 dark:bg-red-950/60" },
  stopped: { dot: "bg-amber-600", text: "text-amber-900 dark:text-amber-100 bg-amber-50 dark:bg-amber-950/60" },
  ended: { dot: "bg-slate-400", text: "text-slate-600 dark:text-slate-300 bg-slate-100 dark:bg-slate-800" },
};

/** A thread's status (and, once terminated, its outcome) as a dot and a word (never by colour alone). */
export function StatusBadge({
  status,
  stopReason,
  title,
  child = true,
}: {
  status: ThreadStatus;
  stopReason?: string | null;
  title?: string;
  /** A subagent's thread (the default); false for a top-level thread. */
  child?: boolean;
}) {
  const o = threadOutcome(status, stopReason, child);
  const s = styles[o.tone];
  return (
    <span
      data-testid="thread-status"
      data-status={status}
      data-outcome={o.tone}
      title={title}
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${s.text}`}
    >
      <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${s.dot}`} />
      {o.label}
    </span>
  );
}
