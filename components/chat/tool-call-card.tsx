import { formatDuration } from "@/components/threads/format";
import type { ToolCallView } from "./build-rows";
import { Collapsible } from "./collapsible";
import { Markdown } from "./markdown";

function pretty(json: string): string {
  if (!json.trim()) return "";
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

const KIND_LABEL: Record<string, string> = {
  tool: "Tool",
  subprompt: "Subprompt",
  handoff: "Handoff",
  subagent: "Subagent",
};

function StatusText({ call, threadRunning }: { call: ToolCallView; threadRunning: boolean }) {
  const r = call.result;
  if (!r) {
    return threadRunning || call.run?.running ? (
      <span className="flex items-center gap-1 text-indigo-700 dark:text-indigo-300">
        <span aria-hidden className="h-2 w-2 animate-spin rounded-full border-2 border-current border-t-transparent" />
        Running…
      </span>
    ) : (
      <span className="text-slate-500 dark:text-slate-400">No result</span>
    );
  }
  const ok = r.tool_status !== "error";
  return (
    <span className={ok ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}>
      <span aria-hidden>{ok ? "✓ " : "✗ "}</span>
      {ok ? "Done" : "Error"}
    </span>
  );
}

/** A tool or subprompt call: name, kind, status and duration; opens to its arguments and its result or error. */
export function ToolCallCard({ call, threadRunning }: { call: ToolCallView; threadRunning: boolean }) {
  const error = call.result?.tool_status === "error";
  const duration = call.run?.durationMs;
  const args = pretty(call.arguments);
  return (
    <Collapsible
      id={`tool:${call.id}`}
      testId="tool-call"
      className={
        error
          ? "border-red-200 bg-red-50/60 dark:border-red-900 dark:bg-red-950/30"
          : "border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900"
      }
      header={
        <span className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-0.5" data-tool={call.name}>
          <span className="text-xs font-medium text-slate-500 dark:text-slate-400">
            {KIND_LABEL[call.kind] ?? "Tool"}
          </span>
          <span data-testid="tool-name" className="font-mono text-[0.8rem] font-semibold">
            {call.name}
          </span>
          <span className="text-xs">
            <StatusText call={call} threadRunning={threadRunning} />
          </span>
          {(call.run?.attempt ?? 1) > 1 ? (
            <span
              data-testid="tool-rerun"
              title={`Attempt ${call.run!.attempt}: the server restarted while this call ran, and it ran again`}
              className="rounded bg-amber-100 px-1.5 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-300"
            >
              re-run after a restart
            </span>
          ) : null}
          {duration !== undefined && call.result ? (
            <span
              data-testid="tool-duration"
              className="ml-auto text-xs tabular-nums text-slate-500 dark:text-slate-400"
            >
              {formatDuration(duration)}
            </span>
          ) : null}
        </span>
      }
    >
      {args ? (
        <section aria-label="Arguments">
          <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">Arguments</h4>
          <pre
            data-testid="tool-arguments"
            className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs dark:bg-slate-950"
          >
            {args}
          </pre>
        </section>
      ) : null}
      {call.result ? (
        <section aria-label={error ? "Error" : "Result"} className={args ? "mt-2" : ""}>
          <h4
            className={`mb-1 text-xs font-semibold uppercase tracking-wide ${error ? "text-red-700 dark:text-red-300" : "text-slate-500"}`}
          >
            {error ? "Error" : "Result"}
          </h4>
          <div
            data-testid="tool-result"
            className="max-h-80 overflow-auto rounded bg-slate-50 p-2 text-xs dark:bg-slate-950"
          >
            {call.kind === "subprompt" && !error ? (
              <Markdown text={call.result.content ?? ""} />
            ) : (
              <pre className="whitespace-pre-wrap break-words font-mono">{call.result.content}</pre>
            )}
          </div>
        </section>
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {threadRunning ? "Waiting for the result…" : "This call has no result."}
        </p>
      )}
    </Collapsible>
  );
}
