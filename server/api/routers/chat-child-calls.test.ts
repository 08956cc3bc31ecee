import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { startTestApp, waitFor, waitForThread, type TestApp } from "@/tests/helpers/test-app";
import { appRouter } from "../root";
import { createCallerFactory } from "../trpc";

let fake: FakeLlm;
let t: TestApp;
const callerFor = createCallerFactory(appRouter);
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
  caller = callerFor({ app: t.app, caller: { userId: null, username: null, role: "admin", via: "local" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("a blocking child followed from its parent's conversation", () => {
  it("childCalls finds the child by the call before its result exists: name, live sessionStatus, then the outcome", async () => {
    fake.setScript([
      {
        when: { system_contains: "You are a writing assistant", last_role: "user" },
        times: 1,
        respond: {
          tool_calls: [
            { name: "draft_and_review", arguments: { brief: "A note about the office", title: "Office note" } },
          ],
        },
      },
      {
        when: { system_contains: "You are a writing assistant", last_role: "tool" },
        respond: { content: "Here is the note." },
      },
      { when: { system_contains: "You are the Writer" }, respond: { content: "Draft: we moved to Main Street." } },
      {
        when: { system_contains: "You are the Reviewer" },
        times: 1,
        respond: { tool_calls: [{ name: "update_status", arguments: { status: "Checking the draft" } }] },
      },
      {
        when: { system_contains: "You are the Reviewer" },
        delay_ms: 1_500,
        respond: { tool_calls: [{ name: "approve_draft", arguments: { draft: "We moved to Main Street." } }] },
      },
    ]);
    const { id } = await caller.threads.create({ agent_id: "writing_assistant" });
    await caller.threads.post({ threadId: id, content: "Write a note about the office." });

    const running = await waitFor(async () => {
      const calls = await caller.chat.childCalls({ threadId: id });
      return calls[0]?.registryStatus === "Checking the draft" ? calls[0] : null;
    });
    expect(running).toMatchObject({
      agentId: "draft_and_review",
      name: "Office note",
      threadStatus: "running",
      finishedAt: null,
    });
    expect(running.title).toBe("Draft and review");
    // The parent's message holds the very call the row names.
    const snap = await caller.chat.snapshot({ threadId: id });
    const callIds = snap.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    expect(callIds).toContain(running.toolCallId);

    await waitForThread(t.url, id);
    const [done] = await caller.chat.childCalls({ threadId: id });
    expect(done).toMatchObject({ childId: running.childId, stopReason: "session_stop" });
    expect(done!.finishedAt).toBeGreaterThanOrEqual(done!.createdAt);
  });

  it("messageUsage gives each assistant message its tokens and cost; a request log names its endpoint and neighbours", async () => {
    fake.setScript([{ respond: { content: "Short answer." } }]);
    const { id } = await caller.threads.create({ agent_id: "writing_assistant" });
    await caller.threads.post({ threadId: id, content: "one" });
    await waitForThread(t.url, id);
    await caller.threads.post({ threadId: id, content: "two" });
    await waitForThread(t.url, id);

    const snap = await caller.chat.snapshot({ threadId: id });
    const replies = snap.messages.filter((m) => m.role === "assistant");
    expect(replies).toHaveLength(2);
    const usage = await caller.chat.messageUsage({ threadId: id });
    for (const r of replies) {
      expect(usage[r.id]?.requests).toBe(1);
      expect(usage[r.id]!.inputTokens).toBeGreaterThan(0);
      expect(usage[r.id]!.outputTokens).toBeGreaterThan(0);
    }

    const timeline = await caller.inspector.timeline({ threadId: id });
    const llm = timeline.items.filter((i) => i.kind === "llm");
    expect(llm).toHaveLength(2);
    const first = await caller.inspector.log({ logId: llm[0]!.id });
    expect(first.endpoint).toEqual({ url: `${fake.url}/chat/completions`, apiKeyEnv: "OPENAI_API_KEY" });
    expect(first.neighbors).toEqual({ prevId: null, nextId: llm[1]!.id, index: 0, total: 2 });
    const second = await caller.inspector.log({ logId: llm[1]!.id });
    expect(second.neighbors).toEqual({ prevId: llm[0]!.id, nextId: null, index: 1, total: 2 });
    expect(JSON.stringify(first.request)).toContain('"one"');
  });
});
