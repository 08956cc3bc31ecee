"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { definitionRows, endpointRows, LIST_KINDS, LIST_TITLE, searchRows, type ListKind } from "@/shared/editor/definition-list";
import { projectGraph } from "@/shared/graph-projection";
import { DefinitionTable } from "./definition-table";

const USED_BY_LABEL: Record<ListKind, string> = {
  prompts: "Used by",
  models: "Used by",
  tools: "Used by",
  hooks: "Used by",
  effects: "Used by (effects are scheduled from tool code)",
  endpoints: "Used by",
};

/** One list page: the definitions of a kind with search and what uses each one, and tabs to the other kinds. */
export function DefinitionListPage({ kind }: { kind: ListKind }) {
  const trpc = useTRPC();
  const view = useQuery(trpc.editor.view.queryOptions());
  const overview = useQuery({ ...trpc.registry.overview.queryOptions(), enabled: kind === "endpoints" });
  const [query, setQuery] = useState("");
  const rows = useMemo(() => {
    if (!view.data) return null;
    if (kind === "endpoints") return overview.data ? endpointRows(overview.data.routes, view.data.diagnostics) : null;
    const graph = projectGraph({ definitions: view.data.definitions, diagnostics: view.data.diagnostics });
    return definitionRows(kind, view.data, graph);
  }, [kind, view.data, overview.data]);
  const shown = useMemo(() => (rows ? searchRows(rows, query) : null), [rows, query]);
  const title = LIST_TITLE[kind];
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-6">
      <nav aria-label="Definition kinds" className="flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
        {LIST_KINDS.map((k) => (
          <Link
            key={k}
            href={`/definitions/${k}`}
            aria-current={k === kind ? "page" : undefined}
            className={`rounded-t px-3 py-1.5 text-sm ${k === kind ? "border-b-2 border-indigo-600 font-semibold text-slate-900 dark:text-white" : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"}`}
          >
            {LIST_TITLE[k]}
          </Link>
        ))}
      </nav>
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">{title}</h1>
        {rows ? (
          <span data-testid="definition-count" className="text-sm text-slate-600 dark:text-slate-300">
            {shown?.length === rows.length ? `${rows.length}` : `${shown?.length ?? 0} of ${rows.length}`}
          </span>
        ) : null}
        <input
          type="search"
          aria-label={`Search ${title.toLowerCase()}`}
          placeholder="Search names, files, summaries, users…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="ml-auto w-72 rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900"
        />
        <Link href="/editor" className="text-sm text-indigo-700 underline dark:text-indigo-300">
          Open the editor
        </Link>
      </header>
      {view.error || overview.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {(view.error ?? overview.error)?.message}
        </p>
      ) : shown ? (
        <DefinitionTable rows={shown} usedByLabel={USED_BY_LABEL[kind]} />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">Loading…</p>
      )}
    </main>
  );
}
