import { describe, expect, it } from "vitest";
import { buildRows, tailRows, type RowContext } from "./build-rows";
import type { AgentSummary, ChatMessage } from "./types";

let seq = 0;
const m = (x: Partial<ChatMessage>): ChatMessage =>
  ({
    id: `m${++seq}`,
    seq,
    side: null,
    role: "user",
    content: null,
    created_at: seq,
    silent: false,
    metadata: null,
    ...x,
  }) as ChatMessage;
const call = (id: string, name: string, args = "{}") => ({
  id,
  type: "function" as const,
  function: { name, arguments: args },
});
const agent = (
  name: string,
  type: "ai_human" | "dual_ai",
  title: string,
  labels: [string, string?] = ["A"],
): AgentSummary =>
  ({
    name,
    type,
    title,
    sides: { a: { prompt: "p", label: labels[0] }, ...(labels[1] ? { b: { prompt: "q", label: labels[1] } } : {}) },
  }) as AgentSummary;
const ctx = (over: Partial<RowContext> = {}): RowContext => ({
  agents: new Map([
    ["front", agent("front", "ai_human", "Front desk")],
    ["billing", agent("billing", "ai_human", "Billing desk")],
    ["duo", agent("duo", "dual_ai", "Duo", ["Writer", "Reviewer"])],
  ]),
  rootAgentId: "front",
  toolKinds: { count: "tool", polish: "subprompt", billing: "handoff", draft: "subagent" },
  toolRuns: {},
  showSilent: false,
  ...over,
});

describe("buildRows", () => {
  it("in a dual_ai child thread, the brief from the parent is written by the parent agent, not by a side", () => {
    const rows = buildRows(
      [
        m({ role: "user", side: "b", content: "Write a haiku", metadata: { from_parent: "p1" } }),
        m({ role: "assistant", side: "a", content: "Draft", metadata: { model: "fast" } }),
        m({ role: "user", side: "b", content: "Looks good", metadata: { model: "careful" } }),
      ],
      ctx({ rootAgentId: "duo" }),
    );
    const labels = rows.map((r) => (r.kind === "message" ? r.author.label : r.kind));
    expect(labels).toEqual(["Parent agent", "Writer", "Reviewer"]);
    expect(rows[0]!.kind === "message" && rows[0]!.author.kind).toBe("parent");
  });

  it("folds tool results into their calls, shows handoffs as dividers and labels replies with the active agent", () => {
    const rows = buildRows(
      [
        m({ role: "user", content: "hi", metadata: { source: "chat" } }),
        m({
          role: "assistant",
          content: "One moment.",
          tool_calls: [call("c1", "count", '{"text":"a b"}'), call("c2", "billing")],
          metadata: { model: "fast" },
        }),
        m({ role: "tool", name: "count", tool_call_id: "c1", tool_status: "success", content: "2 words" }),
        m({ role: "tool", name: "billing", tool_call_id: "c2", tool_status: "success", content: "Handoff complete" }),
        m({ role: "assistant", content: "Billing here.", metadata: { model: "fast" } }),
      ],
      ctx({ toolRuns: { c1: { durationMs: 5, status: "success" } } }),
    );
    expect(rows.map((r) => r.kind)).toEqual(["message", "message", "handoff", "message"]);
    const [you, front, handoff, billing] = rows;
    expect(you).toMatchObject({ author: { label: "You", kind: "human" }, markdown: false });
    expect(front).toMatchObject({ author: { label: "Front desk" }, markdown: true });
    expect(
      front?.kind === "message" && front.toolCalls.map((c) => [c.name, c.result?.content, c.run?.durationMs]),
    ).toEqual([["count", "2 words", 5]]);
    expect(handoff).toMatchObject({ to: "billing", status: "success" });
    expect(billing).toMatchObject({ author: { label: "Billing desk" } });
  });

  it("turns subagent calls and the results children report into child cards; other silent messages only on request", () => {
    const child = "11111111-2222-3333-4444-555555555555";
    const messages = [
      m({ role: "assistant", tool_calls: [call("c9", "draft", '{"brief":"a note"}')], metadata: { model: "fast" } }),
      m({
        role: "tool",
        name: "draft",
        tool_call_id: "c9",
        tool_status: "success",
        content: `The subagent was initiated successfully. Reference: ${child}`,
      }),
      m({
        role: "user",
        silent: true,
        subagent_id: child,
        content: `Subagent (reference: ${child}) has returned the following result:\n\nThe note.`,
      }),
      m({ role: "user", silent: true, content: "hidden note" }),
    ];
    const rows = buildRows(messages, ctx());
    expect(rows.map((r) => r.kind)).toEqual(["child", "child"]);
    expect(rows[0]).toMatchObject({
      card: { event: "started", childId: child, agent: "draft", arguments: '{"brief":"a note"}' },
    });
    expect(rows[1]).toMatchObject({ card: { event: "returned", childId: child, text: "The note.", silent: true } });
    expect(buildRows(messages, ctx({ showSilent: true })).map((r) => r.kind)).toEqual(["child", "child", "message"]);
    const failed = buildRows(
      [
        m({
          role: "user",
          silent: true,
          content: `Subagent (reference: ${child}) has reported a failure:\n\nNo date.`,
        }),
      ],
      ctx(),
    );
    expect(failed[0]).toMatchObject({ card: { event: "failed", text: "No date." } });
  });

  it("labels both sides of a dual_ai thread and the user posting as either side", () => {
    const rows = buildRows(
      [
        m({ role: "user", content: "brief" }),
        m({ role: "assistant", content: "draft", metadata: { model: "careful" } }),
        m({ role: "user", content: "notes", metadata: { model: "fast" } }),
        m({ role: "assistant", content: "mine", metadata: { source: "chat" } }),
      ],
      ctx({ rootAgentId: "duo" }),
    );
    expect(rows.map((r) => (r.kind === "message" ? r.author.label : r.kind))).toEqual([
      "Reviewer",
      "Writer",
      "Reviewer",
      "You as Writer",
    ]);
    const tail = tailRows(
      { stepId: "s", side: "b", content: "…", reasoning: "" },
      [],
      ctx({ rootAgentId: "duo" }),
      "duo",
    );
    expect(tail[0]).toMatchObject({ kind: "streaming", author: { label: "Reviewer" } });
  });
});
