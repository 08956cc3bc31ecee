/** "Handed off to …": the thread's active agent changed; the next reply comes from the new agent. */
export function HandoffDivider({
  to,
  status,
  error,
}: {
  to: string;
  status: "pending" | "success" | "error";
  error: string | null;
}) {
  const text =
    status === "pending"
      ? `Handing off to ${to}…`
      : status === "success"
        ? `Handed off to ${to}`
        : `Handoff to ${to} failed`;
  return (
    <div
      data-testid="handoff"
      data-status={status}
      className="flex items-center gap-3 py-1 text-xs text-slate-500 dark:text-slate-400"
    >
      <span aria-hidden className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      <p
        className={`flex items-center gap-1.5 font-medium ${status === "error" ? "text-red-700 dark:text-red-300" : "text-slate-700 dark:text-slate-200"}`}
      >
        <span aria-hidden>⇄</span>
        {text}
        {error ? <span className="font-normal">: {error}</span> : null}
      </p>
      <span aria-hidden className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
    </div>
  );
}
