"use client";

import type { GraphNode } from "@/shared/graph-projection";
import { isCodeMarker, isDocObject } from "@/shared/editor/doc";
import type { EditorDoc } from "../state/editor-state";

/** Tools, hooks and files the editor does not write: what they are, where they live, what they declare. */
export function ReadOnlyInfo({ node, doc }: { node: GraphNode; doc: EditorDoc }) {
  const v = doc.value;
  const variables = v && Array.isArray(v.variables) ? v.variables.filter(isDocObject) : [];
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="read-only-info">
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {node.kind === "tool" || node.kind === "hook"
          ? `${node.kind === "tool" ? "Tools" : "Hooks"} are code: edit ${doc.file} in your code editor. The graph updates as soon as you save the file.`
          : node.kind === "file"
            ? `This file did not load; its problems are listed on the node. Fix ${doc.file} and the graph updates.`
            : (doc.reason ?? "")}
      </p>
      {v && typeof v.description === "string" ? <p className="whitespace-pre-wrap">{v.description}</p> : null}
      {node.tool ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          <dt className="font-medium">Arguments</dt>
          <dd className="font-mono">{node.tool.argFields.join(", ") || "none"}</dd>
          <dt className="font-medium">Used as</dt>
          <dd>{node.tool.lifecycle.length ? node.tool.lifecycle.map((l) => `${l.role} of ${l.agent} (side ${l.side})`).join("; ") : "a callable tool"}</dd>
        </dl>
      ) : null}
      {node.hook ? <p className="text-xs">Hook point: {node.hook.point}</p> : null}
      {variables.length > 0 ? (
        <div className="text-xs">
          <p className="font-medium">Variables</p>
          <ul className="list-disc pl-4">
            {variables.map((x, i) => (
              <li key={i}>
                <span className="font-mono">{String(x.name)}</span> ({String(x.type)}
                {x.required === true ? ", required" : ""}){typeof x.description === "string" && x.description ? `: ${x.description}` : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {v && isCodeMarker(v.execute) ? <p className="text-xs text-slate-500">execute: code</p> : null}
    </div>
  );
}
