import Link from "next/link";
import { ChevronIcon } from "@/components/chat/icons";
import { absoluteTime, plainText, relativeTime, shortId, visibleTags } from "./format";
import { StatusBadge } from "./status-badge";
import type { AgentSummary, ThreadNode } from "./types";

interface Props {
  node: ThreadNode;
  depth: number;
  agent: AgentSummary | undefined;
  now: number;
  collapsed: boolean;
  onToggle(): void;
}

/** One thread in the list: status, agent, name, tags, last message, last activity; children nest below it. */
export function ThreadRow({ node, depth, agent, now, collapsed, onToggle }: Props) {
  const t = node.thread;
  const kids = node.children.length;
  const preview = t.preview;
  return (
    <li
      data-testid="thread-row"
      data-thread={t.id}
      data-parent={t.parent_id ?? ""}
      data-depth={depth}
      data-context={t.context}
      className="relative"
      title={t.context ? "Listed as the parent of a match" : undefined}
      style={{ paddingLeft: depth ? `${depth * 1.5}rem` : undefined }}
    >
      {depth > 0 ? (
        <span
          aria-hidden
          className="absolute top-0 bottom-1/2 w-3 rounded-bl border-b border-l border-slate-300 dark:border-slate-600"
          style={{ left: `${depth * 1.5 - 0.9}rem` }}
        />
      ) : null}
      {/* A parent listed for context is marked by a dashed frame, not dimmed text (dimming fails contrast). */}
      <div className={`flex items-start gap-2 rounded-lg border ${t.context ? "border-dashed" : ""} border-slate-200 bg-white p-3 hover:border-indigo-300 hover:shadow-sm dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700`}>
        {kids > 0 ? (
          <button
            type="button"
            onClick={onToggle}
            aria-expanded={!collapsed}
            aria-label={`${collapsed ? "Show" : "Hide"} ${kids} child thread${kids === 1 ? "" : "s"}`}
            className="mt-0.5 rounded px-1 text-xs text-slate-500 dark:text-slate-400 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
          >
            <ChevronIcon className={`transition-transform ${collapsed ? "" : "rotate-90"}`} />
          </button>
        ) : (
          <span aria-hidden className="w-5" />
        )}
        <Link
          href={`/threads/${t.id}`}
          className="flex min-w-0 flex-1 flex-col gap-1 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-500"
        >
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <StatusBadge
              status={t.status}
              stopReason={t.stop_reason}
              child={!!t.parent_id}
              title={t.stop_reason ? `last stop: ${t.stop_reason}` : undefined}
            />
            {t.awaiting_approval ? (
              <span data-testid="thread-awaiting-approval" className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100">
                Awaiting approval
              </span>
            ) : null}
            <span data-testid="thread-agent" className="font-medium">
              {agent?.title ?? t.agent_id}
            </span>
            {agent?.type === "dual_ai" ? (
              <span className="rounded bg-indigo-50 px-1.5 text-[0.7rem] text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
                dual_ai
              </span>
            ) : null}
            {t.name ? <span className="truncate text-sm text-slate-600 dark:text-slate-300">“{t.name}”</span> : null}
            {visibleTags(t.tags).map((tag) => (
              <span
                key={tag}
                data-testid="thread-tag"
                className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200"
              >
                #{tag}
              </span>
            ))}
            <span className="ml-auto flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
              {kids > 0 ? (
                <span>
                  {kids} child{kids === 1 ? "" : "ren"}
                </span>
              ) : null}
              <span className="font-mono">{shortId(t.id)}</span>
              <time
                dateTime={t.last_activity_at}
                title={`Last activity ${absoluteTime(t.last_activity_at)} · created ${absoluteTime(t.created_at)}`}
              >
                {relativeTime(t.last_activity_at, now)}
              </time>
            </span>
          </span>
          <span data-testid="thread-preview" className="truncate text-sm text-slate-600 dark:text-slate-300">
            {preview ? (
              <>
                <span className="font-medium text-slate-800 dark:text-slate-100">
                  {preview.role === "user" && agent?.type !== "dual_ai"
                    ? "You"
                    : preview.role === "user"
                      ? (agent?.sides.b?.label ?? "Side B")
                      : (agent?.sides.a.label ?? "Assistant")}
                  :{" "}
                </span>
                {plainText(preview.text)}
              </>
            ) : (
              <span className="italic text-slate-500 dark:text-slate-400">No messages yet</span>
            )}
          </span>
        </Link>
      </div>
    </li>
  );
}
