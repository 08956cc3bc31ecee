"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { agentTitle, type Row } from "./build-rows";
import { ChildAgentCard } from "./child-agent-card";
import { HandoffDivider } from "./handoff-divider";
import { MessageBubble } from "./message-bubble";
import { appendedRows } from "./new-rows";
import { PendingBubble, StreamingBubble } from "./streaming-bubble";
import { ToolCallCard } from "./tool-call-card";
import type { AgentSummary } from "./types";

const ESTIMATE: Record<Row["kind"], number> = {
  message: 96,
  tool: 48,
  handoff: 32,
  child: 72,
  streaming: 72,
  pending: 64,
};
const BOTTOM_SLACK = 64;

interface Props {
  rows: Row[];
  threadId: string;
  threadRunning: boolean;
  agents: ReadonlyMap<string, AgentSummary>;
  onRetry(id: string): void;
  onRemove(id: string): void;
  /** Older messages exist above the first row. */
  hasOlder: boolean;
  loadingOlder: boolean;
  olderError: string | null;
  onLoadOlder(): void;
  /** Changes when the user sends a message: the list goes back to the latest rows. */
  follow: number;
}

const TOP_BAR = 36;
const LOAD_AHEAD_PX = 1_500;

/**
 * The conversation, virtualized (only the rows in view are in the DOM, so thousands of messages stay fast). It sticks
 * to the bottom while new content streams in, unless the reader scrolled up; then a button jumps back to the latest.
 * Older messages page in above as the reader nears the top, without moving what they are looking at.
 */
export function MessageList({
  rows,
  threadId,
  threadRunning,
  agents,
  onRetry,
  onRemove,
  hasOlder,
  loadingOlder,
  olderError,
  onLoadOlder,
  follow,
}: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [atBottom, setAtBottom] = useState(true);
  const [unseen, setUnseen] = useState(0);
  const lastRows = useRef<readonly Row[]>(rows);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => ESTIMATE[rows[i]?.kind ?? "message"],
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 8,
    paddingEnd: 16,
    scrollMargin: TOP_BAR,
  });
  const total = virtualizer.getTotalSize();
  const firstKey = rows[0]?.key;
  const prev = useRef({ firstKey, total });
  /** Home was pressed: keep going to the very first message while older pages arrive. */
  const wantTop = useRef(false);

  const toBottom = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // Follow the latest content while stuck to the bottom (new rows, a growing streamed reply, late measurements).
  // When older rows were added above, keep what the reader looks at in place instead.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const before = prev.current;
    prev.current = { firstKey, total };
    if (stick.current) toBottom();
    else if (el && wantTop.current) el.scrollTop = 0;
    else if (el && before.firstKey !== undefined && firstKey !== before.firstKey && total > before.total)
      el.scrollTop += total - before.total;
  }, [total, rows, firstKey, toBottom]);

  // Page older messages in before the reader reaches the top.
  useEffect(() => {
    const el = scrollRef.current;
    if (el && hasOlder && !loadingOlder && !olderError && el.scrollTop < LOAD_AHEAD_PX) onLoadOlder();
  }, [hasOlder, loadingOlder, olderError, onLoadOlder, rows.length]);

  useEffect(() => {
    const before = lastRows.current;
    lastRows.current = rows;
    if (stick.current || before === rows) return;
    const added = appendedRows(before, rows);
    if (added > 0) setUnseen((n) => n + added);
  }, [rows]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    if (hasOlder && !loadingOlder && !olderError && el.scrollTop < LOAD_AHEAD_PX) onLoadOlder();
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK;
    stick.current = bottom;
    if (bottom !== atBottom) setAtBottom(bottom);
    if (bottom && unseen) setUnseen(0);
  };

  const jump = () => {
    stick.current = true;
    setAtBottom(true);
    setUnseen(0);
    virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
    requestAnimationFrame(toBottom);
  };

  const lastFollow = useRef(follow);
  useEffect(() => {
    if (follow === lastFollow.current) return;
    lastFollow.current = follow;
    stick.current = true;
    setAtBottom(true);
    setUnseen(0);
    toBottom();
  }, [follow, toBottom]);

  // Home/End jump through the whole (virtualized) list; the browser's own smooth scroll would stop at estimates.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || rows.length === 0) return;
    wantTop.current = false;
    if (e.key === "End") {
      e.preventDefault();
      jump();
    } else if (e.key === "Home") {
      e.preventDefault();
      stick.current = false;
      wantTop.current = hasOlder;
      virtualizer.scrollToIndex(0, { align: "start" });
    }
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scrollRef}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        onWheel={() => (wantTop.current = false)}
        onTouchStart={() => (wantTop.current = false)}
        tabIndex={0}
        data-testid="message-scroller"
        // A labelled region: a label on an element without a role is prohibited (axe aria-prohibited-attr).
        role="region"
        aria-label="Conversation. Arrow and page keys scroll, Home and End go to the first and the latest message."
        className="h-full overflow-y-auto overscroll-contain focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500"
        style={{ overflowAnchor: "none" }}
      >
        <div
          style={{ height: TOP_BAR }}
          className="flex items-center justify-center text-xs text-slate-500 dark:text-slate-400"
          data-testid="history-edge"
        >
          {olderError ? (
            <span role="alert">
              Older messages could not be loaded.{" "}
              <button
                type="button"
                onClick={onLoadOlder}
                className="font-medium text-indigo-700 underline dark:text-indigo-300"
              >
                Retry
              </button>
            </span>
          ) : hasOlder ? (
            <span aria-live="polite">
              {loadingOlder ? "Loading older messages…" : "Older messages load as you scroll up"}
            </span>
          ) : rows.length > 0 ? (
            "Beginning of the conversation"
          ) : null}
        </div>
        <div
          // A feed holds articles: an empty thread's list has no role (axe: aria-required-children).
          role={items.length > 0 ? "feed" : undefined}
          aria-busy={items.length > 0 ? threadRunning : undefined}
          aria-label={items.length > 0 ? "Messages" : undefined}
          className="relative mx-auto w-full max-w-3xl"
          style={{ height: total }}
        >
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <article
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                aria-label={rowLabel(row)}
                aria-posinset={item.index + 1}
                aria-setsize={rows.length}
                data-row={row.kind}
                className="absolute left-0 top-0 w-full px-3 py-2 sm:px-4"
                style={{ transform: `translateY(${item.start - TOP_BAR}px)` }}
              >
                {renderRow(row, { threadId, threadRunning, agents, onRetry, onRemove })}
              </article>
            );
          })}
        </div>
      </div>
      {!atBottom ? (
        <button
          type="button"
          onClick={jump}
          data-testid="jump-to-latest"
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full border border-slate-200 bg-white px-3 py-1.5 text-xs font-medium shadow-md hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-800 dark:hover:bg-slate-700"
        >
          ↓ {unseen > 0 ? `${unseen} new` : "Jump to latest"}
        </button>
      ) : null}
    </div>
  );
}

/** What a screen reader announces for a row of the feed. */
function rowLabel(row: Row): string {
  switch (row.kind) {
    case "message":
      return row.message.silent ? `${row.author.label} (silent)` : row.author.label;
    case "tool":
      return `Tool ${row.call.name}`;
    case "handoff":
      return `Handoff to ${row.to}`;
    case "child":
      return `Child agent ${row.card.agent ?? ""}`.trim();
    case "streaming":
      return `${row.author.label}, replying`;
    case "pending":
      return `${row.author.label}, ${row.pending.state}`;
  }
}

function renderRow(
  row: Row,
  p: {
    threadId: string;
    threadRunning: boolean;
    agents: ReadonlyMap<string, AgentSummary>;
    onRetry(id: string): void;
    onRemove(id: string): void;
  },
): ReactNode {
  switch (row.kind) {
    case "message":
      return (
        <MessageBubble
          message={row.message}
          author={row.author}
          toolCalls={row.toolCalls}
          markdown={row.markdown}
          threadId={p.threadId}
          threadRunning={p.threadRunning}
        />
      );
    case "tool":
      return <ToolCallCard call={row.call} threadRunning={p.threadRunning} />;
    case "handoff":
      return <HandoffDivider to={agentTitle(p.agents, row.to)} status={row.status} error={row.error} />;
    case "child":
      return <ChildAgentCard card={row.card} rowKey={row.key} />;
    case "streaming":
      return <StreamingBubble streaming={row.streaming} author={row.author} />;
    case "pending":
      return (
        <PendingBubble
          pending={row.pending}
          author={row.author}
          threadId={p.threadId}
          threadRunning={p.threadRunning}
          onRetry={() => p.onRetry(row.pending.id)}
          onRemove={() => p.onRemove(row.pending.id)}
        />
      );
  }
}
