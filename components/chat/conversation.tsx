"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { absoluteTime } from "@/components/threads/format";
import { ApprovalCards } from "./approval-cards";
import { agentTitle, authorOf, buildRows, tailRows, type RowContext } from "./build-rows";
import { ChildStatusContext } from "./child-status-context";
import { Composer } from "./composer";
import { ConversationHeader } from "./conversation-header";
import { ExpandedProvider } from "./expanded-context";
import { ForkOrigin } from "./fork-origin";
import { MessageList } from "./message-list";
import { StatusFooter } from "./status-footer";
import { statusLine } from "./stop-reasons";
import { ThreadDetails } from "./thread-details";
import { SaveAsCase } from "../evals/save-as-case";
import { ThreadEnvEditor } from "./thread-env-editor";
import type { AgentSummary, Snapshot } from "./types";
import { UsagePanel } from "./usage-panel";
import { ChildCallContext, useChildCalls } from "./use-child-calls";
import { MessageUsageContext, useMessageUsage } from "./use-message-usage";
import { useConversation } from "./use-conversation";
import { useFillHeight } from "./use-fill-height";

/** A live conversation with one thread: messages, streaming, tools, children, status, composer, usage. */
/** `compact`: in a narrow panel (the editor's docked chat), the details start closed. */
export function Conversation({ snapshot, agents, compact = false }: { snapshot: Snapshot; agents: ReadonlyMap<string, AgentSummary>; compact?: boolean }) {
  const trpc = useTRPC();
  const thread = snapshot.thread;
  const { state, dispatch, send, connection, loadOlder, loadingOlder, olderError } = useConversation(snapshot);
  const [showSilent, setShowSilent] = useState(false);
  const [follow, setFollow] = useState(0);
  // Open by default on wide screens. (The conversation renders on the client only, once its snapshot has loaded.)
  const [detailsOpen, setDetailsOpen] = useState(
    () => !compact && typeof window !== "undefined" && window.matchMedia("(min-width: 1280px)").matches,
  );
  const frame = useRef<HTMLDivElement>(null);
  const height = useFillHeight(frame);

  const root = agents.get(thread.root_agent_id);
  const dual = root?.type === "dual_ai";
  const ctx: RowContext = useMemo(
    () => ({
      agents,
      rootAgentId: thread.root_agent_id,
      toolKinds: snapshot.toolKinds,
      toolRuns: state.toolRuns,
      showSilent,
    }),
    [agents, thread.root_agent_id, snapshot.toolKinds, state.toolRuns, showSilent],
  );
  const stored = useMemo(() => buildRows(state.messages, ctx), [state.messages, ctx]);
  const rows = useMemo(
    () => [...stored, ...tailRows(state.streaming, state.pending, ctx, state.agentId)],
    [stored, state.streaming, state.pending, ctx, state.agentId],
  );
  const silentCount = useMemo(() => state.messages.filter((m) => m.silent).length, [state.messages]);

  // Live status of the child threads the cards link to (polled while any of them is still running).
  const childIds = useMemo(
    () => [...new Set(stored.flatMap((r) => (r.kind === "child" && r.card.childId ? [r.card.childId] : [])))].sort(),
    [stored],
  );
  const statuses = useQuery(
    trpc.chat.statuses.queryOptions(
      { ids: childIds },
      {
        enabled: childIds.length > 0,
        refetchInterval: (q) => (q.state.data?.some((s) => s.status === "running") ? 3_000 : false),
      },
    ),
  );
  const childCalls = useChildCalls(thread.id, stored);
  const usageByMessage = useMessageUsage(thread.id, state.messages.at(-1)?.seq ?? 0);
  const childMap = useMemo(() => new Map((statuses.data ?? []).map((s) => [s.id, s])), [statuses.data]);

  const stop = useMutation(trpc.threads.stop.mutationOptions());
  const cont = useMutation(trpc.threads.continue.mutationOptions());
  const terminate = useMutation(trpc.threads.terminate.mutationOptions());

  const running = state.status === "running";
  const activeTool = useMemo(() => {
    const open = Object.entries(state.toolRuns).find(([, r]) => r.running);
    if (!open) return null;
    const call = state.messages
      .findLast((m) => m.tool_calls?.some((c) => c.id === open[0]))
      ?.tool_calls?.find((c) => c.id === open[0]);
    return call?.function.name ?? null;
  }, [state.toolRuns, state.messages]);
  const streamingLabel = state.streaming
    ? authorOf(
        { role: state.streaming.side === "a" ? "assistant" : "user", metadata: { model: "x" } },
        ctx,
        state.agentId,
      ).label
    : null;
  const line = statusLine({
    status: state.status,
    stop: state.lastStop,
    stopReason: state.stopReason,
    dual,
    activeTool,
    streamingLabel,
  });
  const disabledReason =
    state.status === "terminated"
      ? `This thread was terminated${state.terminated ? ` on ${absoluteTime(state.terminated / 1000)}` : ""}: it accepts no new messages.`
      : null;

  // Screen readers hear status changes and new replies, not every token.
  const [announcement, setAnnouncement] = useState("");
  const lastAnnounced = useRef(state.messages.at(-1)?.id);
  useEffect(() => setAnnouncement(line.text), [line.text]);
  useEffect(() => {
    const last = state.messages.at(-1);
    if (!last || last.id === lastAnnounced.current) return;
    lastAnnounced.current = last.id;
    if (last.role !== "tool" && last.metadata?.model && last.content) {
      setAnnouncement(`${authorOf(last, ctx, state.agentId).label}: ${last.content.slice(0, 300)}`);
    }
  }, [state.messages, ctx, state.agentId]);

  const title = thread.name ?? agentTitle(agents, thread.root_agent_id);
  const handedTo = state.agentId !== thread.root_agent_id ? agentTitle(agents, state.agentId) : null;
  return (
    <div ref={frame} style={{ height }} className="-mx-4 -my-6 flex min-h-[24rem] flex-col pt-3 sm:mx-0">
      <ConversationHeader
        thread={thread}
        title={title}
        handedTo={handedTo}
        status={state.status}
        stopReason={state.stopReason}
        connection={connection}
        showSilent={showSilent}
        silentCount={silentCount}
        onToggleSilent={() => setShowSilent((v) => !v)}
        detailsOpen={detailsOpen}
        onToggleDetails={() => setDetailsOpen((v) => !v)}
        onTerminate={() => terminate.mutate({ threadId: thread.id })}
        terminating={terminate.isPending}
      />
      <ForkOrigin thread={thread} />
      <div className="relative flex min-h-0 flex-1">
        <div className="flex min-w-0 flex-1 flex-col">
          <ChildStatusContext.Provider value={childMap}>
            <ChildCallContext.Provider value={childCalls}>
              <MessageUsageContext.Provider value={usageByMessage}>
                <ExpandedProvider>
                  <MessageList
                    rows={rows}
                    threadId={thread.id}
                    threadRunning={running}
                    agents={agents}
                    onRetry={(id) => {
                      const p = state.pending.find((x) => x.id === id);
                      if (p) void send({ content: p.content, attachments: p.attachments, role: p.role, retryOf: id });
                    }}
                    onRemove={(id) => dispatch({ type: "pending.remove", id })}
                    hasOlder={state.hasOlder}
                    loadingOlder={loadingOlder}
                    olderError={olderError}
                    onLoadOlder={() => void loadOlder()}
                    follow={follow}
                  />
                </ExpandedProvider>
              </MessageUsageContext.Provider>
            </ChildCallContext.Provider>
          </ChildStatusContext.Provider>
          <div className="flex flex-col gap-2 px-3 pb-3 sm:px-4">
            <ApprovalCards threadId={thread.id} running={running} />
            <StatusFooter
              line={line}
              onContinue={() => cont.mutate({ threadId: thread.id })}
              continuing={cont.isPending}
              error={stop.error?.message ?? cont.error?.message ?? terminate.error?.message ?? null}
            />
            <Composer
              threadId={thread.id}
              disabledReason={disabledReason}
              running={running}
              sides={dual ? { a: root?.sides.a.label ?? "Side A", b: root?.sides.b?.label ?? "Side B" } : null}
              onSend={(input) => {
                setFollow((n) => n + 1);
                void send(input);
              }}
              onStop={() => stop.mutate({ threadId: thread.id })}
              stopping={stop.isPending}
            />
          </div>
        </div>
        {detailsOpen ? (
          <aside
            id="thread-side-panel"
            aria-label="Usage and details"
            onKeyDown={(e) => e.key === "Escape" && setDetailsOpen(false)}
            className="absolute inset-y-0 right-0 z-10 flex w-80 max-w-full flex-col gap-6 overflow-y-auto border-l border-slate-200 bg-white p-4 shadow-xl dark:border-slate-800 dark:bg-slate-900 xl:static xl:shadow-none"
          >
            <UsagePanel threadId={thread.id} />
            <ThreadDetails thread={thread} agentTitle={agentTitle(agents, thread.root_agent_id)} />
            <ThreadEnvEditor threadId={thread.id} agent={thread.agent_id} />
            {thread.parent_id ? null : <SaveAsCase threadId={thread.id} agentId={thread.root_agent_id} />}
          </aside>
        ) : null}
      </div>
      <p aria-live="polite" role="status" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}
