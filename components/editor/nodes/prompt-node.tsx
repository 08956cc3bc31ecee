"use client";

import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { EditorFlowNode } from "./node-data";
import { Chip, NodeShell } from "./node-shell";

export const PromptNode = memo(function PromptNode({ data, selected }: NodeProps<EditorFlowNode>) {
  const p = data.node.prompt!;
  const vars = [...new Set([...p.variables, ...p.envParts])];
  return (
    <NodeShell data={data} selected={selected} badges={p.model ? <Chip tone="sky" title="model">{p.model}</Chip> : <Chip tone="amber">no model</Chip>}>
      <p className="text-[11px] text-slate-600 dark:text-slate-300">
        {p.toolCount} tool{p.toolCount === 1 ? "" : "s"}
        {p.flags.length > 0 ? <span className="text-slate-500"> · {p.flags.join(" · ")}</span> : null}
      </p>
      {p.schemaFields?.length ? <p className="truncate text-[10px] text-slate-500">arguments: {p.schemaFields.join(", ")}</p> : null}
      {p.includes.length > 0 ? <p className="truncate text-[10px] text-slate-500">includes {p.includes.join(", ")}</p> : null}
      {vars.length > 0 ? <p className="truncate text-[10px] text-slate-500">variables {vars.join(", ")}</p> : null}
      {p.runtimeTools.length > 0 ? (
        <p className="truncate text-[10px] text-violet-700 dark:text-violet-300" title="Lifecycle tools the runtime adds for resumable subagents">
          + {p.runtimeTools.join(", ")} (lifecycle)
        </p>
      ) : null}
    </NodeShell>
  );
});
