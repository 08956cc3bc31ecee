import type { ListRow } from "@/shared/editor/definition-list";

/** The rows of a definition list: name, file, summary, what uses it and its problems. */
export function DefinitionTable({ rows, usedByLabel }: { rows: ListRow[]; usedByLabel: string }) {
  if (rows.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-300">Nothing matches.</p>;
  return (
    <table className="w-full table-fixed border-collapse text-sm">
      <thead>
        <tr className="border-b border-slate-200 text-left text-xs text-slate-600 dark:border-slate-700 dark:text-slate-300">
          <th scope="col" className="w-1/5 py-2 pr-3 font-semibold">Name</th>
          <th scope="col" className="w-2/5 py-2 pr-3 font-semibold">Summary</th>
          <th scope="col" className="w-2/5 py-2 font-semibold">{usedByLabel}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.file}:${r.name}`} data-testid="definition-row" data-name={r.name} className="border-b border-slate-100 align-top dark:border-slate-800">
            <th scope="row" className="py-2 pr-3 text-left font-normal">
              <p className="truncate font-mono text-sm font-semibold" title={r.name}>
                {r.name}
              </p>
              <p className="truncate text-xs text-slate-600 dark:text-slate-300" title={r.file}>
                {r.file}
              </p>
              {r.problems > 0 ? (
                <p data-testid="row-problems" className="text-xs font-medium text-red-700 dark:text-red-300">
                  {r.problems} problem{r.problems === 1 ? "" : "s"}
                </p>
              ) : null}
            </th>
            <td className="py-2 pr-3 break-words text-slate-700 dark:text-slate-200" data-testid="row-summary">
              {r.summary || <span className="text-slate-500 dark:text-slate-400">—</span>}
            </td>
            <td className="py-2" data-testid="row-used-by">
              {r.usedBy.length === 0 ? (
                <span className="text-slate-600 dark:text-slate-300">not used</span>
              ) : (
                <ul className="flex flex-wrap gap-1">
                  {r.usedBy.map((u) => (
                    <li key={`${u.kind}:${u.name}:${u.as}`} className="rounded border border-slate-200 px-1.5 py-0.5 text-xs dark:border-slate-700">
                      <span className="text-slate-600 dark:text-slate-300">{u.kind}</span> <span className="font-mono">{u.name}</span>{" "}
                      <span className="text-slate-600 dark:text-slate-300">({u.as})</span>
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
