import type { ThreadStatus } from "@/components/chat/types";

const styles: Record<ThreadStatus, { label: string; dot: string; text: string }> = {
  running: {
    label: "Running",
    dot: "bg-emerald-500 animate-pulse",
    text: "text-emerald-800 dark:text-emerald-200 bg-emerald-50 dark:bg-emerald-950/60",
  },
  idle: {
    label: "Waiting",
    dot: "bg-amber-500",
    text: "text-amber-900 dark:text-amber-100 bg-amber-50 dark:bg-amber-950/60",
  },
  terminated: {
    label: "Terminated",
    dot: "bg-slate-400",
    text: "text-slate-600 dark:text-slate-300 bg-slate-100 dark:bg-slate-800",
  },
};

/** A thread's status as a dot and a word (never by colour alone). */
export function StatusBadge({ status, title }: { status: ThreadStatus; title?: string }) {
  const s = styles[status];
  return (
    <span
      data-testid="thread-status"
      data-status={status}
      title={title}
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ${s.text}`}
    >
      <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${s.dot}`} />
      {s.label}
    </span>
  );
}
