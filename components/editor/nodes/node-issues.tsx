"use client";

import { useReactFlow } from "@xyflow/react";
import { useEffect, useState } from "react";
import type { GraphNode } from "@/shared/graph-projection";
import { useCanvasActions } from "../canvas/canvas-context";

/** The problems of a node: a red/amber badge that opens the list, each with its message and a jump to the field. */
export function NodeIssues({ node }: { node: GraphNode }) {
  const [open, setOpen] = useState(false);
  const { jumpToField } = useCanvasActions();
  const flow = useReactFlow();
  // An opened list must be readable and clickable: bring the node to the middle of the canvas at the current zoom.
  useEffect(() => {
    if (!open) return;
    const zoom = flow.getZoom();
    const frame = requestAnimationFrame(() => void flow.fitView({ nodes: [{ id: node.id }], minZoom: zoom, maxZoom: zoom, duration: 0 }));
    return () => cancelAnimationFrame(frame);
  }, [open, flow, node.id]);
  if (node.issues.length === 0) return null;
  const errors = node.issues.filter((i) => i.severity === "error").length;
  const warnings = node.issues.length - errors;
  const tone = errors > 0 ? "bg-red-600 text-white" : "bg-amber-400 text-amber-950";
  const summary = [errors ? `${errors} error${errors === 1 ? "" : "s"}` : "", warnings ? `${warnings} warning${warnings === 1 ? "" : "s"}` : ""].filter(Boolean).join(", ");
  return (
    <div className="nodrag nopan mt-2" data-issues-open={open ? "true" : undefined}>
      <button
        type="button"
        data-testid="node-issues-toggle"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className={`rounded px-1.5 py-0.5 text-[11px] font-semibold focus-visible:outline-2 focus-visible:outline-indigo-500 ${tone}`}
      >
        {errors > 0 ? "✖" : "⚠"} {summary}
      </button>
      {open ? (
        <ul className="mt-1 flex max-h-48 flex-col gap-1 overflow-auto" data-testid="node-issues">
          {node.issues.map((issue, i) => (
            <li
              key={i}
              data-testid="node-issue"
              data-severity={issue.severity}
              data-field={issue.field}
              className={`rounded border px-2 py-1 text-[11px] leading-snug ${issue.severity === "error" ? "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100" : "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"}`}
            >
              <p>{issue.message}</p>
              {issue.field && node.kind !== "file" ? (
                <button
                  type="button"
                  onClick={() => jumpToField(node.id, node.defId, issue.field)}
                  className="mt-0.5 font-medium underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-500"
                >
                  Go to {issue.field}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
