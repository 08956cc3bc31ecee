"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useMemo, useRef, useState } from "react";
import { useNow } from "@/components/threads/use-now";
import { PendingRow, TreeNodeRow } from "./tree-row";
import { visibleRows } from "./tree-rows";
import type { InspectorTree } from "./types";

const ROW = 52;

/** The subagent tree as a virtualized list: only the rows in view are in the DOM, so 200+ children stay smooth. */
export function TreeList({
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
  const now = useNow(1_000);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    getItemKey: (i) => {
      const r = rows[i];
      return !r ? i : r.kind === "node" ? r.node.id : `pending:${r.pending.requestId}`;
    },
    overscan: 10,
  });
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

  return (
    <div
      ref={scrollRef}
      role="tree"
      aria-label="Subagent tree"
      data-testid="inspector-tree"
      data-count={tree.nodes.length}
      className="h-[calc(100vh-15rem)] min-h-80 overflow-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualizer.getVirtualItems().map((v) => {
          const r = rows[v.index]!;
          return (
            <div key={v.key} style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${v.start}px)` }}>
              {r.kind === "node" ? (
                <TreeNodeRow
                  node={r.node}
                  selected={r.node.id === selected}
                  collapsed={collapsed.has(r.node.id)}
                  now={now}
                  onSelect={onSelect}
                  onToggle={toggle}
                />
              ) : (
                <PendingRow pending={r.pending} depth={r.depth} onSelect={() => onSelect(r.pending.parentId)} />
              )}
            </div>
          );
        })}
      </div>
      {tree.truncated ? <p className="p-2 text-xs text-slate-500">Very large tree: only the first 5,000 threads are shown.</p> : null}
    </div>
  );
}
