"use client";

import { Handle, Position } from "@xyflow/react";
import type { ReactNode } from "react";
import type { GraphNode } from "@/shared/graph-projection";
import { useCanvasActions } from "../canvas/canvas-context";
import { NODE_WIDTH } from "../layout/node-size";
import type { EditorNodeData } from "./node-data";
import { NodeIssues } from "./node-issues";

const ACCENT: Record<GraphNode["kind"], string> = {
  agent: "border-t-indigo-500",
  prompt: "border-t-sky-500",
  model: "border-t-slate-500",
  tool: "border-t-emerald-500",
  hook: "border-t-pink-500",
  file: "border-t-red-500",
};
const KIND_LABEL: Record<GraphNode["kind"], string> = { agent: "Agent", prompt: "Prompt", model: "Model", tool: "Tool", hook: "Hook", file: "File" };

/** The frame every node shares: kind, name, problems, collapse toggle and the connection handles. */
export function NodeShell({
  data,
  selected,
  badges,
  children,
  sourceHandles = true,
  targetHandle = true,
}: {
  data: EditorNodeData;
  selected: boolean;
  badges?: ReactNode;
  children?: ReactNode;
  sourceHandles?: ReactNode | boolean;
  targetHandle?: boolean;
}) {
  const { node, collapsed, hiddenCount, hasChildren, highlighted, dimmed } = data;
  const { toggleCollapse } = useCanvasActions();
  const errors = node.issues.some((i) => i.severity === "error");
  const warnings = !errors && node.issues.length > 0;
  const ring = errors ? "border-red-500 ring-2 ring-red-500/40" : warnings ? "border-amber-400 ring-2 ring-amber-400/40" : "border-slate-200 dark:border-slate-700";
  return (
    <div
      data-testid="editor-node"
      data-kind={node.kind}
      data-name={node.name}
      data-issues={errors ? "error" : warnings ? "warning" : "none"}
      data-dimmed={dimmed ? "true" : undefined}
      style={{ width: NODE_WIDTH[node.kind] }}
      className={`rounded-lg border border-t-4 bg-white text-left text-slate-900 dark:bg-slate-900 dark:text-slate-100 ${ACCENT[node.kind]} ${ring} ${selected ? "outline-2 outline-offset-2 outline-indigo-500" : ""} ${highlighted ? "ring-4 ring-amber-400/60" : ""} ${dimmed ? "opacity-20" : ""}`}
    >
      {targetHandle ? <Handle type="target" position={Position.Top} className="!h-2.5 !w-2.5 !bg-slate-400" /> : null}
      <div className="px-3 pt-2 pb-2">
        <div className="flex items-center gap-1.5">
          <span data-node-kind-label="" className="text-[10px] font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{KIND_LABEL[node.kind]}</span>
          {badges ? <span data-node-badges="" className="flex min-w-0 items-center gap-1.5">{badges}</span> : null}
          {hasChildren ? (
            <button
              type="button"
              data-testid="collapse-toggle"
              aria-label={collapsed ? `Expand ${node.name}` : `Collapse ${node.name}`}
              aria-expanded={!collapsed}
              onClick={(e) => {
                e.stopPropagation();
                toggleCollapse(node.id);
              }}
              className="nodrag ml-auto rounded px-1 text-xs text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
            >
              {collapsed ? `▸ ${hiddenCount} hidden` : "▾"}
            </button>
          ) : null}
        </div>
        <p data-node-name="" className="truncate font-mono text-sm font-semibold" title={node.name}>
          {node.name}
        </p>
        <div className="node-detail">{children}</div>
        <div data-node-issues-wrap="">
          <NodeIssues node={node} />
        </div>
      </div>
      {sourceHandles === true ? <Handle type="source" position={Position.Bottom} className="!h-2.5 !w-2.5 !bg-slate-400" /> : sourceHandles || null}
    </div>
  );
}

export function Chip({ children, tone = "slate", title }: { children: ReactNode; tone?: "slate" | "indigo" | "emerald" | "amber" | "violet" | "sky"; title?: string }) {
  const tones = {
    slate: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
    indigo: "bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200",
    emerald: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
    amber: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
    violet: "bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200",
    sky: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200",
  };
  return (
    <span title={title} className={`inline-flex items-center rounded px-1.5 py-px text-[10px] font-medium ${tones[tone]}`}>
      {children}
    </span>
  );
}
