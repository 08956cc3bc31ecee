"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { chatHref } from "@/components/editor/thread-links";
import { formatCost, formatTokens } from "@/components/threads/format";
import { UsageCharts } from "@/components/charts/usage-charts";
import { FilesPanel } from "@/components/files/files-panel";
import { NodePanel } from "./node-panel";
import { Tabs } from "@/components/ui/tabs";
import { TimelinePanel } from "./timeline-panel";
import { TreeList } from "./tree-list";
import { AwaitingApprovalContext, useAwaitingApproval } from "./approval-badge";
import type { TreeSnapshot } from "./live-tree";
import { useInspectorLive } from "./use-inspector-live";

export type InspectorView = "tree" | "timeline" | "files" | "charts";
type View = InspectorView;

const LIVE_TEXT = { connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…", error: "Offline" } as const;

/**
 * The inspector of a thread: its live tree of descendants next to the selected thread's detail, and a timeline of
 * the LLM requests and tool calls of the whole subtree. Everything updates from the subtree's event feed.
 */
export function InspectorScreen({
  threadId,
  initialNode,
  initialView,
  initialTree,
  initialError,
}: {
  threadId: string;
  initialNode?: string;
  /** The tab to open first (`?tab=` in the address). */
  initialView?: View;
  /** The tree as the page was rendered on the server, so the first paint shows it; the live feed takes over. */
  initialTree?: TreeSnapshot | null;
  /** Why the server could not render the tree (e.g. the thread does not exist): shown instead, with no live feed. */
  initialError?: string | null;
}) {
  const [selected, setSelected] = useState(initialNode ?? threadId);
  const [view, setView] = useState<View>(initialView ?? "tree");
  const { tree, state: live, error: liveError } = useInspectorLive(threadId, initialTree ?? null, !initialError);
  const awaiting = useAwaitingApproval(threadId);
  const error = initialError ?? liveError;

  // The selected node is part of the address, so a drill-down can be shared and survives a reload.
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    params.set("view", "inspector");
    if (selected === threadId) params.delete("node");
    else params.set("node", selected);
    if (view === "tree") params.delete("tab");
    else params.set("tab", view);
    window.history.replaceState(null, "", `${window.location.pathname}?${params.toString()}`);
  }, [selected, threadId, view]);
  const select = useCallback((id: string) => {
    setSelected(id);
    setView((v) => (v === "files" || v === "charts" ? v : "tree"));
  }, []);

  if (error && !tree) {
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100">
        <p className="font-semibold">The inspector could not be loaded.</p>
        <p className="mt-1">{error}</p>
        <Link href="/threads" className="mt-2 inline-block font-medium underline">
          Back to the threads
        </Link>
      </div>
    );
  }
  const root = tree?.nodes[0];
  return (
    <div className="flex flex-col gap-4" data-testid="inspector">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold tracking-tight">Inspector</h1>
        {root ? (
          <span className="text-slate-600 dark:text-slate-300">
            {root.agentTitle}
            {root.name ? ` “${root.name}”` : ""} · {root.descendants} descendant{root.descendants === 1 ? "" : "s"} ·{" "}
            <span data-testid="inspector-total">
              {formatTokens(root.subtree.inputTokens + root.subtree.outputTokens)} tokens · {formatCost(root.subtree.cost)}
            </span>
          </span>
        ) : null}
        <span
          data-testid="inspector-live"
          data-state={live}
          className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800"
        >
          <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${live === "live" ? "bg-emerald-500" : "bg-slate-400"}`} />
          {LIVE_TEXT[live]}
        </span>
        <Link href={chatHref(threadId)} className="ml-auto text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
          Back to the chat
        </Link>
      </header>
      <Tabs<View>
        label="Inspector views"
        value={view}
        onChange={setView}
        tabs={[
          { id: "tree", label: "Tree" },
          { id: "timeline", label: "Timeline" },
          { id: "files", label: "Files" },
          { id: "charts", label: "Charts" },
        ]}
      >
        {view === "tree" ? (
          <div className="grid gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
            {tree ? (
              <AwaitingApprovalContext.Provider value={awaiting}>
                <TreeList tree={tree} selected={selected} onSelect={select} />
              </AwaitingApprovalContext.Provider>
            ) : (
              <p aria-busy="true" className="text-sm text-slate-500 dark:text-slate-400">
                Loading the tree…
              </p>
            )}
            <NodePanel threadId={selected} onSelect={select} />
          </div>
        ) : view === "charts" ? (
          <UsageCharts
            rootId={threadId}
            threadId={selected}
            threadLabel={tree?.nodes.find((n) => n.id === selected)?.agentTitle ?? "the selected thread"}
          />
        ) : view === "files" ? (
          <div className="flex flex-col gap-2">
            <p className="text-sm text-slate-600 dark:text-slate-300">
              Files of{" "}
              {selected === threadId ? "this thread" : <span className="font-mono">{tree?.nodes.find((n) => n.id === selected)?.agentTitle ?? selected}</span>}
              {selected !== threadId ? (
                <button type="button" className="ml-2 text-indigo-700 underline dark:text-indigo-300" onClick={() => setSelected(threadId)}>
                  show the root's files
                </button>
              ) : null}
            </p>
            <FilesPanel key={selected} threadId={selected} />
          </div>
        ) : (
          <TimelinePanel rootId={threadId} />
        )}
      </Tabs>
    </div>
  );
}
