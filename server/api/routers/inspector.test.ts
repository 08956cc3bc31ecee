import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { fixtureAgents, startTestApp, waitFor, type TestApp } from "@/tests/helpers/test-app";
import { appRouter } from "../root";
import { createCallerFactory } from "../trpc";

let fake: FakeLlm;
let t: TestApp;
const callerFor = createCallerFactory(appRouter);
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
  caller = callerFor({ app: t.app, caller: { userId: null, username: null, role: "admin" as const, via: "local" as const } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const boss = "You are the boss.";
const worker = "You are the child worker.";

async function settled(root: string) {
  await waitFor(async () => (await caller.inspector.tree({ threadId: root })).nodes.every((n) => n.threadStatus !== "running"), 20_000);
}

describe("inspector router", () => {
  it("lists the subtree live with registry status, mode, usage roll-up; shows each node's exchange with its parent", async () => {
    fake.setScript([
      {
        when: { system_contains: boss, last_contains: "create one" },
        times: 1,
        respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "res_duo", message: "Watch the inbox", attachments: [], name: "Inbox watcher" } }] },
      },
      { when: { system_contains: worker, last_contains: "Watch the inbox" }, times: 1, respond: { tool_calls: [{ name: "report_status", arguments: { status: "watching" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Inbox is empty" } }] } },
      { when: { system_contains: boss }, respond: { content: "noted" } },
    ]);
    const root = (await caller.threads.create({ agent_id: "boss" })).id;
    // The activity feed announces the spawned child (it joins the subtree as it is created).
    const feed = (await caller.inspector.activity({ threadId: root }))[Symbol.asyncIterator]();
    expect((await feed.next()).value).toMatchObject({ tree: true });
    await caller.threads.post({ threadId: root, content: "create one" });
    const batch = await waitFor(async () => {
      const r = await feed.next();
      return r.value && (r.value as { threadIds: string[] }).threadIds.length > 1 ? (r.value as { threadIds: string[] }) : null;
    });
    await settled(root);
    void feed.return?.(undefined);

    const tree = await caller.inspector.tree({ threadId: root });
    expect(tree.nodes).toHaveLength(2);
    const [top, child] = tree.nodes as [(typeof tree.nodes)[number], (typeof tree.nodes)[number]];
    expect(batch.threadIds).toContain(child.id);
    expect(child).toMatchObject({
      parentId: root,
      depth: 1,
      agentId: "res_duo",
      name: "Inbox watcher",
      registryStatus: "idle",
      customStatus: false,
      blocking: false,
      resumable: true,
      communication: "implicit",
      immediate: false,
      optional: null,
    });
    expect(child.own.requests).toBeGreaterThan(0);
    expect(top.subtree.requests).toBe(top.own.requests + child.own.requests);
    expect(top.subtree.cost).toBeCloseTo(top.own.cost + child.own.cost, 10);
    expect(top.descendants).toBe(1);

    // The child's detail: the message from the parent, both sides' labels, its report back to the parent.
    const detail = await caller.inspector.node({ threadId: child.id });
    expect(detail.agent.labels).toEqual({ a: "Worker", b: "Checker" });
    expect(detail.messages.find((m) => (m.metadata as { from_parent?: string } | null)?.from_parent === root)?.content).toBe("Watch the inbox");
    expect(detail.toParent.map((m) => m.kind)).toEqual(["initiated", "report"]);
    expect(detail.toParent[1]!.content).toBe(`Subagent (reference: ${child.id}) has returned the following result:\n\nInbox is empty`);

    // The parent's registry: the system message text is the runtime's, as the model received it.
    const parent = await caller.inspector.node({ threadId: root });
    expect(parent.registry.entries.map((e) => e.reference)).toEqual([child.id]);
    const sent = fake
      .getRequests()
      .filter((r) => String(r.messages[0]!.content).includes(boss))
      .at(-1)!;
    expect(sent.messages[1]).toMatchObject({ role: "system", content: parent.registry.systemMessage });

    // subagent_message from the UI: the child runs again and reports a second time.
    await caller.inspector.messageChild({ parentId: root, childId: child.id, message: "Check again" });
    await waitFor(async () => (await caller.inspector.node({ threadId: child.id })).toParent.filter((m) => m.kind === "report").length === 2, 20_000);
    await expect(caller.inspector.messageChild({ parentId: child.id, childId: root, message: "x" })).rejects.toThrow(/not a subagent/);

    // Timeline: every request log of the subtree, with tokens and cost; tool spans from the event log.
    await settled(root);
    const timeline = await caller.inspector.timeline({ threadId: root });
    const llm = timeline.items.filter((i) => i.kind === "llm");
    const logs = await t.app.prisma.llmRequestLog.count({ where: { threadId: { in: [root, child.id] } } });
    expect(llm).toHaveLength(logs);
    expect(timeline.items.some((i) => i.kind === "tool" && i.label === "report_status" && i.end !== null)).toBe(true);
    const log = await caller.inspector.log({ logId: llm[0]!.id });
    expect(log.messages[0]).toMatchObject({ role: "system" });
    expect(log.tools.map((x) => x.name)).toContain("subagent_create");

    // Terminate: the registry says so, and the registry message no longer lists the child.
    await caller.threads.terminate({ threadId: child.id });
    const after = await caller.inspector.node({ threadId: root });
    expect(after.registry.entries[0]!.status).toBe("terminated");
    expect(after.registry.systemMessage).toBeNull();
  });
});
