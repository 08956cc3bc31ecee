/**
 * The pages a provider-run web search cited for an answer (`metadata.citations`: `{url, title?}`), as links under the
 * text. Only http(s) addresses become links; anything else is left out.
 */
export function MessageSources({ metadata }: { metadata: Record<string, unknown> | null | undefined }) {
  const raw = metadata?.citations;
  if (!Array.isArray(raw)) return null;
  const sources = raw.flatMap((c) => {
    const url = typeof c?.url === "string" ? c.url : "";
    if (!/^https?:\/\//i.test(url)) return [];
    return [{ url, title: typeof c.title === "string" && c.title !== "" ? c.title : url }];
  });
  if (sources.length === 0) return null;
  return (
    <div data-testid="message-sources" className="text-xs text-slate-600 dark:text-slate-300">
      <span className="font-semibold">Sources</span>
      <ol className="mt-0.5 list-decimal pl-5">
        {sources.map((s) => (
          <li key={s.url}>
            <a href={s.url} target="_blank" rel="noopener noreferrer nofollow" className="text-sky-700 underline hover:no-underline dark:text-sky-300">
              {s.title}
            </a>
          </li>
        ))}
      </ol>
    </div>
  );
}
