"use client";

import Link from "next/link";
import { StatusBadge } from "@/components/threads/status-badge";
import { shortId } from "@/components/threads/format";
import type { ChildCardData } from "./build-rows";
import { useNow } from "@/components/threads/use-now";
import { useChildStatus } from "./child-status-context";
import { useChildCall } from "./use-child-calls";
import { ScopedVariablesForm } from "./scoped-variables-form";
import { Collapsible } from "./collapsible";
import { BranchIcon } from "./icons";
import { Markdown } from "./markdown";
import type { ThreadStatus } from "./types";

const EVENT: Record<ChildCardData["event"], { label: string; tone: string }> = {
  running: {
    label: "Waiting for a child agent",
    tone: "border-indigo-200 bg-indigo-50/60 dark:border-indigo-900 dark:bg-indigo-950/30",
  },
  started: {
    label: "Started a child agent in the background",
    tone: "border-indigo-200 bg-indigo-50/60 dark:border-indigo-900 dark:bg-indigo-950/30",
  },
  returned: {
    label: "Child agent returned a result",
    tone: "border-emerald-200 bg-emerald-50/60 dark:border-emerald-900 dark:bg-emerald-950/30",
  },
  failed: {
    label: "Child agent reported a failure",
    tone: "border-red-200 bg-red-50/60 dark:border-red-900 dark:bg-red-950/30",
  },
  activity: {
    label: "Child agent activity",
    tone: "border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900",
  },
};

function briefOf(args: string | null): string | null {
  if (!args) return null;
  try {
    const v = JSON.parse(args) as Record<string, unknown>;
    const first = Object.values(v).find((x) => typeof x === "string");
    return typeof first === "string" ? first : args;
  } catch {
    return args;
  }
}

const KNOWN = new Set(["running", "idle", "terminated", "failed"]);

function elapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/** How long the child has run, ticking each second while it runs. */
function Elapsed({ from, until }: { from: number; until: number | null }) {
  const now = useNow(1_000);
  return (
    <span
      data-testid="child-elapsed"
      className="text-xs tabular-nums text-slate-700 dark:text-slate-300"
      title="Time since the child was started"
    >
      {elapsed((until ?? now) - from)}
    </span>
  );
}

/**
 * Child-agent activity: started, live status, the result it returned or the failure it reported; links to the child.
 * A subagent call's card finds its child by the call id, so it names the child, shows its status (the child's own
 * `sessionStatus` text when it reports one) and links to it from the moment it was spawned, not only after the result.
 */
export function ChildAgentCard({ card, rowKey }: { card: ChildCardData; rowKey: string }) {
  const byCall = useChildCall(card.callId);
  const childId = card.childId ?? byCall?.childId ?? null;
  const live = useChildStatus(childId);
  const e = EVENT[card.event];
  const status = (byCall?.threadStatus ?? live?.status ?? card.status) as ThreadStatus | null;
  const stopReason = byCall?.stopReason ?? live?.stop_reason ?? null;
  const agent = card.agent ?? live?.agent_id ?? "subagent";
  const title = byCall?.title ?? null;
  const instance = byCall?.name ?? live?.name ?? null;
  const custom = byCall && !KNOWN.has(byCall.registryStatus) ? byCall.registryStatus : null;
  const brief = briefOf(card.arguments);
  return (
    <div
      data-testid="child-card"
      data-event={card.event}
      data-child={card.childId ?? ""}
      className={`rounded-lg border text-sm ${e.tone}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
        <BranchIcon className="text-slate-600 dark:text-slate-300" />
        <span className="font-medium">{e.label}</span>
        <span data-testid="child-agent" className="text-xs">
          {title ? <span className="font-medium">{title} </span> : null}
          <span className="font-mono">{agent}</span>
        </span>
        {instance ? <span className="text-xs text-slate-600 dark:text-slate-300">“{instance}”</span> : null}
        {status === "running" || status === "idle" || status === "terminated" ? (
          <StatusBadge status={status} stopReason={stopReason} />
        ) : null}
        {byCall ? <Elapsed from={byCall.createdAt} until={byCall.finishedAt} /> : null}
        {card.silent ? (
          <span className="rounded bg-slate-200 px-1.5 text-[0.7rem] text-slate-700 dark:bg-slate-700 dark:text-slate-200">
            silent
          </span>
        ) : null}
        {childId ? (
          <Link
            href={`/threads/${childId}`}
            data-testid="child-link"
            className="ml-auto text-xs font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 dark:text-indigo-300"
          >
            Open child thread {shortId(childId)} →
          </Link>
        ) : null}
      </div>
      {custom || (byCall && byCall.children > 0) ? (
        <p
          data-testid="child-live"
          className="flex flex-wrap gap-x-3 px-3 pb-2 text-xs text-slate-700 dark:text-slate-200"
        >
          {custom ? (
            <span>
              <span className="font-semibold">Status: </span>
              <span data-testid="child-session-status">{custom}</span>
            </span>
          ) : null}
          {byCall && byCall.children > 0 ? (
            <span data-testid="child-children">
              {byCall.children} child thread{byCall.children === 1 ? "" : "s"} of its own
            </span>
          ) : null}
        </p>
      ) : null}
      {brief ? (
        <p className="line-clamp-2 px-3 pb-2 text-xs text-slate-600 dark:text-slate-300">
          <span className="font-semibold">Brief: </span>
          {brief}
        </p>
      ) : null}
      {card.text ? (
        <div className="px-3 pb-3">
          <Collapsible
            id={`child:${rowKey}`}
            className="border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900"
            header={<span>{card.event === "failed" ? "Failure details" : "Result"}</span>}
          >
            <div data-testid="child-text" className="max-h-96 overflow-auto">
              <Markdown text={card.text} />
            </div>
          </Collapsible>
        </div>
      ) : null}
      {card.bootstrap ? (
        <div className="px-3 pb-3">
          <ScopedVariablesForm threadId={card.bootstrap.threadId} requestId={card.bootstrap.requestId} agent={card.bootstrap.agent} />
        </div>
      ) : null}
    </div>
  );
}
