import { formatTokens } from "@/components/threads/format";

/** Share of the model's context window a request's input used (a meter, with the numbers in words). */
export function ContextMeter({ used, window }: { used: number; window: number | null }) {
  if (!window) {
    return (
      <p data-testid="context-meter" className="text-xs text-slate-500 dark:text-slate-400">
        Context: {formatTokens(used)} tokens in (the model&apos;s definition declares no <code>maxContextTokens</code>).
      </p>
    );
  }
  const share = Math.min(1, used / window);
  const pct = Math.round(share * 1000) / 10;
  const tone = share >= 0.9 ? "bg-red-500" : share >= 0.7 ? "bg-amber-500" : "bg-indigo-500";
  return (
    <div data-testid="context-meter" className="flex flex-col gap-1">
      <div className="flex justify-between text-xs text-slate-600 dark:text-slate-300">
        <span id="context-meter-label">Context window</span>
        <span className="tabular-nums">
          {formatTokens(used)} of {formatTokens(window)} tokens ({pct}%)
        </span>
      </div>
      <div
        role="meter"
        aria-labelledby="context-meter-label"
        aria-valuemin={0}
        aria-valuemax={window}
        aria-valuenow={Math.min(used, window)}
        aria-valuetext={`${pct}% of the context window`}
        className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div className={`h-full ${tone}`} style={{ width: `${share * 100}%` }} />
      </div>
    </div>
  );
}
