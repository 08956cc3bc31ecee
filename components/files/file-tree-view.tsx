"use client";

import { focusRing } from "@/components/ui/button";
import { formatSize, type FileNode } from "./file-tree";

const row = `flex w-full min-w-0 items-center gap-2 rounded px-2 py-1 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800 ${focusRing}`;
const FOLDER = "M2 4.5A1.5 1.5 0 0 1 3.5 3h3l1.5 1.5h4.5A1.5 1.5 0 0 1 14 6v5.5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 11.5z";
const FILE = "M4 2h5l3 3v9H4z M9 2v3h3";

function Icon({ d }: { d: string }) {
  return (
    <svg aria-hidden viewBox="0 0 16 16" className="h-4 w-4 shrink-0 fill-none stroke-current text-slate-500 dark:text-slate-400" strokeWidth={1.2}>
      <path d={d} />
    </svg>
  );
}

const active = "bg-indigo-50 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100";

/** A folder tree of a thread's files; a folder is the upload target when chosen, a file opens its preview. */
export function FileTreeView({
  root,
  selected,
  folder,
  onSelectFile,
  onSelectFolder,
}: {
  root: FileNode;
  selected: string | null;
  folder: string;
  onSelectFile: (path: string) => void;
  onSelectFolder: (path: string) => void;
}) {
  const render = (node: FileNode, depth: number) => (
    <li key={node.path}>
      {node.type === "directory" ? (
        <button
          type="button"
          className={`${row} ${folder === node.path && selected === null ? active : ""}`}
          style={{ paddingLeft: `${0.5 + depth * 1}rem` }}
          aria-pressed={folder === node.path}
          onClick={() => onSelectFolder(node.path)}
        >
          <Icon d={FOLDER} />
          <span className="truncate font-mono">{node.path === "/" ? "/ (all files)" : `${node.name}/`}</span>
        </button>
      ) : (
        <button
          type="button"
          data-testid="file-row"
          data-path={node.path}
          className={`${row} ${selected === node.path ? active : ""}`}
          style={{ paddingLeft: `${0.5 + depth * 1}rem` }}
          aria-current={selected === node.path ? "true" : undefined}
          onClick={() => onSelectFile(node.path)}
        >
          <Icon d={FILE} />
          <span className="min-w-0 flex-1 truncate font-mono">{node.name}</span>
          <span className="shrink-0 text-xs text-slate-600 dark:text-slate-300">{formatSize(node.entry?.size ?? 0)}</span>
        </button>
      )}
      {node.children.length > 0 ? <ul>{node.children.map((c) => render(c, depth + 1))}</ul> : null}
    </li>
  );
  return (
    <nav aria-label="Thread files" className="max-h-[32rem] overflow-auto rounded border border-slate-200 p-1 dark:border-slate-700">
      <ul>{render(root, 0)}</ul>
    </nav>
  );
}
