"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { SideView } from "@/shared/graph-projection";
import { useCanvasActions } from "../canvas/canvas-context";
import type { EditorFlowNode } from "./node-data";
import { Chip, NodeShell } from "./node-shell";

function SideRow({ side }: { side: SideView }) {
  const stops = [side.stopOnResponse ? "stops on response" : "continues after text", side.stopTool ? `stopTool ${side.stopTool}` : "", side.maxSteps !== undefined ? `max ${side.maxSteps} steps` : ""].filter(Boolean);
  const session = [side.sessionStop ? `stop: ${side.sessionStop}` : "", side.sessionFail ? `fail: ${side.sessionFail}` : "", side.sessionStatus ? `status: ${side.sessionStatus}` : ""].filter(Boolean);
  return (
    <li data-testid="agent-side" data-side={side.key} className="rounded border border-slate-200 px-2 py-1 dark:border-slate-700">
      <p className="text-xs">
        <span className="font-semibold">Side {side.key.toUpperCase()}</span>
        {side.label ? <span className="text-slate-500"> · {side.label}</span> : null}
        <span className="text-slate-500"> → </span>
        <span className="font-mono">{side.prompt ?? "(no prompt)"}</span>
      </p>
      <p className="text-[10px] text-slate-500 dark:text-slate-400">{stops.join(" · ")}</p>
      {session.length > 0 ? <p className="text-[10px] text-violet-700 dark:text-violet-300">{session.join(" · ")}</p> : null}
    </li>
  );
}

export const AgentNode = memo(function AgentNode({ data, selected }: NodeProps<EditorFlowNode>) {
  const agent = data.node.agent!;
  const { tryIt } = useCanvasActions();
  const handles = agent.sides.map((s, i) => (
    <Handle
      key={s.key}
      id={`side-${s.key}`}
      type="source"
      position={Position.Bottom}
      style={{ left: `${((i + 1) * 100) / (agent.sides.length + 1)}%` }}
      className="!h-3 !w-3 !bg-indigo-500"
      title={`Side ${s.key.toUpperCase()}: drag to a prompt`}
    />
  ));
  return (
    <NodeShell
      data={data}
      selected={selected}
      sourceHandles={<>{handles}</>}
      badges={
        <>
          <Chip tone={agent.type === "dual_ai" ? "violet" : "indigo"}>{agent.type}</Chip>
          {agent.exposeAsTool ? <Chip tone="emerald">as tool</Chip> : null}
        </>
      }
    >
      {agent.title ? <p className="truncate text-xs text-slate-600 dark:text-slate-300">{agent.title}</p> : null}
      {agent.maxSessionTurns !== undefined ? <p className="text-[10px] text-slate-500">max {agent.maxSessionTurns} session turns</p> : null}
      <ul className="mt-1 flex flex-col gap-1">
        {agent.sides.map((s) => (
          <SideRow key={s.key} side={s} />
        ))}
      </ul>
      <button
        type="button"
        onClick={(e) => {
          e.stopPropagation();
          tryIt(data.node.name);
        }}
        className="nodrag mt-1.5 rounded bg-indigo-600 px-2 py-0.5 text-[11px] font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500"
      >
        ▶ Try it
      </button>
    </NodeShell>
  );
});
