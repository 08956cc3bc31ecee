import { memo } from "react";
import { formatCost, formatTokens } from "@/components/threads/format";
import { Age } from "./age";
import { AwaitingApprovalBadge } from "./approval-badge";
import { statusLabel, statusTone, type StatusTone } from "./tree-rows";
import type { PendingSpawn, TreeNode } from "./types";

const TONE: Record<StatusTone, string> = {
  running: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-200",
  idle: "bg-amber-50 text-amber-900 dark:bg-amber-950/60 dark:text-amber-100",
  failed: "bg-red-50 text-red-800 dark:bg-red-950/60 dark:text-red-200",
  terminated: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
  custom: "bg-sky-50 text-sky-900 dark:bg-sky-950/60 dark:text-sky-100",
};
const DOT: Record<StatusTone, string> = {
  running: "bg-emerald-500",
  idle: "bg-amber-500",
  failed: "bg-red-500",
  terminated: "bg-slate-400",
  custom: "bg-sky-500",
};

export const NodeStatus = memo(function NodeStatus({ node }: { node: TreeNode }) {
  const tone = statusTone(node);
  return (
    <span
      data-testid="node-status"
      data-tone={tone}
      title={
        node.customStatus
          ? `${statusLabel(node)} (status reported by the child, sessionStatus)`
          : `Thread: ${node.threadStatus}`
      }
      className={`inline-flex max-w-full items-center gap-1.5 truncate rounded-full px-2 py-0.5 text-xs font-medium ${TONE[tone]}`}
    >
      <span aria-hidden className={`h-1.5 w-1.5 shrink-0 rounded-full ${DOT[tone]}`} />
      <span className="truncate">{statusLabel(node)}</span>
    </span>
  );
});

function Chip({ children, title, testId }: { children: string; title: string; testId?: string }) {
  return (
    <span
      data-testid={testId ?? "mode-badge"}
      title={title}
      className="whitespace-nowrap rounded border border-slate-300 px-1 text-[0.68rem] leading-4 text-slate-600 dark:border-slate-600 dark:text-slate-300"
    >
      {children}
    </span>
  );
}

export function ModeBadges({ node }: { node: TreeNode }) {
  if (node.blocking === null) return null;
  return (
    <>
      <Chip title={node.blocking ? "The parent waits for its result" : "Runs in the background; reports later"}>
        {node.blocking ? "blocking" : "background"}
      </Chip>
      {node.resumable ? <Chip title="Persistent: the parent can message it with subagent_message">resumable</Chip> : null}
      {node.immediate ? <Chip title="Spawned as soon as the parent's prompt became active">immediate</Chip> : null}
      {node.optional ? <Chip title={`Optional branch, enabled by ${node.optional}`}>{`optional: ${node.optional}`}</Chip> : null}
      <Chip
        title={
          node.communication === "explicit"
            ? "Explicit: reports only through state.notifyParent()"
            : "Implicit: its result is queued back to the parent"
        }
      >
        {node.communication ?? "implicit"}
      </Chip>
      {node.spawnGroupId ? <Chip title={`Spawned together (group ${node.spawnGroupId})`}>{`group ${node.spawnGroupId.slice(0, 6)}`}</Chip> : null}
    </>
  );
}

const indent = (depth: number) => ({ paddingLeft: `${0.5 + Math.min(depth, 12) * 1.1}rem` });

/** One thread of the tree: who it is, its status in its parent's registry, its mode, age, tokens and cost. */
export const TreeNodeRow = memo(function TreeNodeRow({
  node,
  selected,
  collapsed,
  onSelect,
  onToggle,
}: {
  node: TreeNode;
  selected: boolean;
  collapsed: boolean;
  onSelect: (id: string) => void;
  onToggle: (id: string) => void;
}) {
  return (
    <div
      role="treeitem"
      aria-level={node.depth + 1}
      aria-selected={selected}
      aria-expanded={node.childCount > 0 ? !collapsed : undefined}
      data-testid="tree-node"
      data-thread={node.id}
      data-depth={node.depth}
      data-status={node.registryStatus ?? node.threadStatus}
      onClick={() => onSelect(node.id)}
      className={`flex h-full cursor-pointer flex-col justify-center gap-0.5 border-b border-slate-100 pr-2 text-sm dark:border-slate-800 ${
        selected ? "bg-indigo-50 dark:bg-indigo-950/50" : "hover:bg-slate-50 dark:hover:bg-slate-900"
      }`}
      style={indent(node.depth)}
    >
      <div className="flex min-w-0 items-center gap-1.5">
        {node.childCount > 0 ? (
          <button
            type="button"
            aria-label={`${collapsed ? "Show" : "Hide"} ${node.descendants} descendant${node.descendants === 1 ? "" : "s"}`}
            onClick={(e) => {
              e.stopPropagation();
              onToggle(node.id);
            }}
            className="w-4 shrink-0 text-slate-500 dark:text-slate-400"
          >
            {collapsed ? "▸" : "▾"}
          </button>
        ) : (
          <span className="w-4 shrink-0" />
        )}
        {/* The agent's name wins the space: the status pill shrinks (its full text in the tooltip) before the name does. */}
        <span
          data-testid="node-agent"
          title={node.agentTitle}
          className="min-w-[6rem] shrink-0 basis-auto truncate font-medium"
          style={{ maxWidth: "70%" }}
        >
          {node.agentTitle}
        </span>
        {node.name ? (
          <span
            data-testid="node-name"
            title={node.name}
            className="min-w-0 shrink-[2] truncate text-slate-500 dark:text-slate-400"
          >
            “{node.name}”
          </span>
        ) : null}
        <span className="ml-auto flex min-w-[4.5rem] shrink items-center justify-end gap-1 overflow-hidden">
          <AwaitingApprovalBadge threadId={node.id} />
          <NodeStatus node={node} />
        </span>
      </div>
      <div className="flex min-w-0 items-center gap-2 pl-5 text-xs text-slate-600 dark:text-slate-300">
        <span className="flex min-w-0 flex-1 items-center gap-1 overflow-hidden">
          <ModeBadges node={node} />
        </span>
        <span className="flex shrink-0 items-center gap-2 tabular-nums">
          <Age from={node.createdAt} />
          <span data-testid="node-usage" title="Own tokens in / out and cost">
            {formatTokens(node.own.inputTokens + node.own.outputTokens)} tok · {formatCost(node.own.cost)}
          </span>
          {node.descendants > 0 ? (
            <span data-testid="node-rollup" title={`With its ${node.descendants} descendants`} className="text-slate-700 dark:text-slate-300">
              Σ {formatTokens(node.subtree.inputTokens + node.subtree.outputTokens)} tok · {formatCost(node.subtree.cost)}
            </span>
          ) : null}
        </span>
      </div>
    </div>
  );
});

/** A spawn that waits for scoped variables (subagent_env_required). */
export const PendingRow = memo(function PendingRow({
  pending,
  depth,
  onSelect,
}: {
  pending: PendingSpawn;
  depth: number;
  onSelect: (id: string) => void;
}) {
  return (
    <div
      role="treeitem"
      aria-level={depth + 1}
      aria-selected={false}
      data-testid="tree-pending"
      data-request={pending.requestId}
      onClick={() => onSelect(pending.parentId)}
      className="flex h-full cursor-pointer flex-col justify-center gap-0.5 border-b border-slate-100 pr-2 text-sm hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900"
      style={indent(depth)}
    >
      <div className="flex items-center gap-1.5 pl-5">
        <span className="truncate font-medium">{pending.agent}</span>
        {pending.name ? <span className="truncate text-slate-500 dark:text-slate-400">“{pending.name}”</span> : null}
        <span className="ml-auto rounded-full bg-orange-50 px-2 py-0.5 text-xs font-medium text-orange-900 dark:bg-orange-950/60 dark:text-orange-100">
          waiting for variables
        </span>
      </div>
      <div className="pl-5 text-xs text-slate-500 dark:text-slate-400">Missing: {pending.missing.join(", ")}</div>
    </div>
  );
});
