/**
 * The provider-run tool calls of an answer (`metadata.provider_tool_calls`: `{name, input?, output?}`): a web search
 * by its query, a code run as a collapsible block with the code and its output. Text only; nothing is rendered as HTML.
 */
export function ProviderToolCalls({ metadata }: { metadata: Record<string, unknown> | null | undefined }) {
  const raw = metadata?.provider_tool_calls;
  if (!Array.isArray(raw)) return null;
  const calls = raw.flatMap((c) =>
    typeof c?.name === "string"
      ? [{ name: c.name as string, input: typeof c.input === "string" ? c.input : "", output: typeof c.output === "string" ? c.output : "" }]
      : [],
  );
  if (calls.length === 0) return null;
  return (
    <div data-testid="provider-tool-calls" className="flex flex-col gap-1 text-xs text-slate-600 dark:text-slate-300">
      {calls.map((c, i) =>
        c.name === "web_search" ? (
          <p key={i} data-testid="provider-tool-call" data-name={c.name}>
            <span className="font-semibold">Searched the web</span>
            {c.input ? `: ${c.input}` : ""}
          </p>
        ) : (
          <details key={i} data-testid="provider-tool-call" data-name={c.name} className="rounded border border-slate-200 px-2 py-1 dark:border-slate-700">
            <summary className="cursor-pointer font-semibold">{c.name === "code_execution" ? "Ran code" : c.name}</summary>
            {c.input ? <pre className="mt-1 overflow-x-auto whitespace-pre-wrap font-mono">{c.input}</pre> : null}
            {c.output ? (
              <pre className="mt-1 overflow-x-auto whitespace-pre-wrap border-t border-slate-200 pt-1 font-mono dark:border-slate-700">{c.output}</pre>
            ) : null}
          </details>
        ),
      )}
    </div>
  );
}
