import type { StatusLine } from "./stop-reasons";

const TONE: Record<StatusLine["tone"], string> = {
  working: "text-indigo-700 dark:text-indigo-300",
  waiting: "text-slate-600 dark:text-slate-300",
  stopped: "text-amber-800 dark:text-amber-200",
  error: "text-red-700 dark:text-red-300",
  ended: "text-slate-600 dark:text-slate-300",
};

/** "Working…", "Waiting for you" or why the thread stopped, with Continue when running on makes sense. */
export function StatusFooter({
  line,
  onContinue,
  continuing,
  error,
}: {
  line: StatusLine;
  onContinue(): void;
  continuing: boolean;
  error: string | null;
}) {
  return (
    <div className="mx-auto flex min-h-6 w-full max-w-3xl flex-wrap items-center gap-x-3 gap-y-1 text-xs">
      <p
        data-testid="status-line"
        data-tone={line.tone}
        className={`flex items-center gap-1.5 font-medium ${TONE[line.tone]}`}
      >
        {line.tone === "working" ? (
          <span aria-hidden className="h-2 w-2 animate-pulse rounded-full bg-current" />
        ) : null}
        {line.tone === "waiting" ? <span aria-hidden className="h-2 w-2 rounded-full bg-amber-500" /> : null}
        {line.text}
      </p>
      {line.detail ? (
        <p
          data-testid="status-detail"
          className="min-w-0 truncate text-slate-500 dark:text-slate-400"
          title={line.detail}
        >
          {line.detail}
        </p>
      ) : null}
      {line.canContinue ? (
        <button
          type="button"
          onClick={onContinue}
          disabled={continuing}
          data-testid="continue"
          className="rounded border border-slate-300 px-2 py-0.5 font-medium hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          {continuing ? "Continuing…" : "Continue"}
        </button>
      ) : null}
      {error ? (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
