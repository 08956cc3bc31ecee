"use client";

import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { EditorFlowNode } from "./node-data";
import { Chip, NodeShell } from "./node-shell";

export const ModelNode = memo(function ModelNode({ data, selected }: NodeProps<EditorFlowNode>) {
  const m = data.node.model!;
  return (
    <NodeShell data={data} selected={selected} badges={m.provider ? <Chip>{m.provider}</Chip> : null}>
      <p className="truncate font-mono text-[11px] text-slate-600 dark:text-slate-300">{m.model ?? "(no model id)"}</p>
      <div className="mt-0.5 flex flex-wrap gap-1">
        {m.capabilities.map((c) => (
          <Chip key={c}>{c}</Chip>
        ))}
      </div>
      {m.price ? <p className="text-[10px] text-slate-500">{m.price}</p> : null}
      {m.fallbacks.length > 0 ? <p className="truncate text-[10px] text-slate-500">falls back to {m.fallbacks.join(", ")}</p> : null}
    </NodeShell>
  );
});
