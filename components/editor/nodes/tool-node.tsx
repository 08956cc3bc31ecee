"use client";

import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { EditorFlowNode } from "./node-data";
import { Chip, NodeShell } from "./node-shell";

export const ToolNode = memo(function ToolNode({ data, selected }: NodeProps<EditorFlowNode>) {
  const t = data.node.tool!;
  return (
    <NodeShell data={data} selected={selected} sourceHandles={false} badges={<Chip tone="emerald">callable</Chip>}>
      {t.description ? <p className="line-clamp-2 text-[11px] text-slate-600 dark:text-slate-300">{t.description}</p> : null}
      <p className="truncate text-[10px] text-slate-500">{t.argFields.length > 0 ? `arguments: ${t.argFields.join(", ")}` : "no arguments"}</p>
      {t.lifecycle.length > 0 ? (
        <div className="mt-0.5 flex flex-wrap gap-1" data-testid="tool-lifecycle">
          {t.lifecycle.map((l, i) => (
            <Chip key={i} tone="violet" title={`${l.role} of ${l.agent}, side ${l.side}`}>
              {l.role} · {l.agent} {l.side}
            </Chip>
          ))}
        </div>
      ) : null}
    </NodeShell>
  );
});
