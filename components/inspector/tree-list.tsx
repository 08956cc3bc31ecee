"use client";

import { memo, useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import { PendingRow, TreeNodeRow } from "./tree-row";
import { visibleRows, type TreeRow } from "./tree-rows";
import type { InspectorTree } from "./types";
import { useFixedRows } from "./use-fixed-rows";

const ROW = 52;

const rowKey = (r: TreeRow) => (r.kind === "node" ? r.node.id : `pending:${r.pending.requestId}`);

/**
 * The subagent tree as a virtualized list of fixed-height rows: only the rows in view (and a few more) are in the
 * DOM, the list re-renders only when a row scrolls in or out, and unchanged rows are memoized, so 200+ children
 * stay smooth while they update live.
 */
export const TreeList = memo(function TreeList({
  tree,
  selected,
  onSelect,
}: {
  tree: InspectorTree;
  selected: string;
  onSelect: (id: string) => void;
}) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => visibleRows(tree, collapsed), [tree, collapsed]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const range = useFixedRows(scrollRef, rows.length, ROW);
  const toggle = useCallback(
    (id: string) =>
      setCollapsed((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

  const drawn: ReactNode[] = [];
  for (let i = range.start; i < Math.min(range.end, rows.length); i++) {
    const r = rows[i]!;
    drawn.push(
      <div key={rowKey(r)} style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${i * ROW}px)`, contain: "strict" }}>
        {r.kind === "node" ? (
          <TreeNodeRow node={r.node} selected={r.node.id === selected} collapsed={collapsed.has(r.node.id)} onSelect={onSelect} onToggle={toggle} />
        ) : (
          <PendingRow pending={r.pending} depth={r.depth} onSelect={onSelect} />
        )}
      </div>,
    );
  }
  return (
    <div
      ref={scrollRef}
      role="tree"
      aria-label="Subagent tree"
      data-testid="inspector-tree"
      data-count={tree.nodes.length}
      style={{ contain: "strict" }}
      className="h-[calc(100vh-15rem)] min-h-80 overflow-y-auto overflow-x-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950"
    >
      <div style={{ height: rows.length * ROW, position: "relative" }}>{drawn}</div>
      {tree.truncated ? <p className="p-2 text-xs text-slate-500 dark:text-slate-400">Very large tree: only the first 5,000 threads are shown.</p> : null}
    </div>
  );
});
