"use client";

import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { EditorFlowNode } from "./node-data";
import { NodeShell } from "./node-shell";

export const HookNode = memo(function HookNode({ data, selected }: NodeProps<EditorFlowNode>) {
  const h = data.node.hook;
  return (
    <NodeShell data={data} selected={selected} sourceHandles={false}>
      <p className="text-[11px] text-slate-600 dark:text-slate-300">{h?.point ?? "hook"}</p>
      {h?.description ? <p className="line-clamp-2 text-[10px] text-slate-500">{h.description}</p> : null}
    </NodeShell>
  );
});

/** A definition file that did not load (syntax error, invalid export): its problems stay visible on the canvas. */
export const FileNode = memo(function FileNode({ data, selected }: NodeProps<EditorFlowNode>) {
  return (
    <NodeShell data={data} selected={selected} sourceHandles={false} targetHandle={false}>
      <p className="truncate font-mono text-[11px] text-slate-600 dark:text-slate-300">{data.node.file}</p>
      <p className="text-[10px] text-red-700 dark:text-red-300">did not load</p>
    </NodeShell>
  );
});
