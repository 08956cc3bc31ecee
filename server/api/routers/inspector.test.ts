import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { fixtureAgents, startTestApp, waitFor, type TestApp } from "@/tests/helpers/test-app";
import { applyPatches, fromSnapshot } from "@/components/inspector/live-tree";
import type { PatchBatch, SnapshotBatch } from "@/shared/inspector/activity-batches";
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
    // The activity feed: a snapshot of the tree, then patches with the facts of the threads that changed; the
    // spawned child joins the subtree as it is created, and its custom status arrives as it reports it.
    const feed = (await caller.inspector.activity({ threadId: root }))[Symbol.asyncIterator]();
    const first = (await feed.next()).value as SnapshotBatch;
    expect(first).toMatchObject({ kind: "snapshot", rootId: root, truncated: false, pending: [] });
    expect(first.facts.map((f) => f.id)).toEqual([root]);
    await caller.threads.post({ threadId: root, content: "create one" });
    const patches: PatchBatch[] = [];
    const next = async () => {
      const r = await Promise.race([feed.next(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no patch within 15 s")), 15_000))]);
      patches.push(r.value as PatchBatch);
    };
    await waitFor(async () => {
      await next();
      return patches.at(-1)!.facts.some((f) => f.registryStatus === "idle" && f.parentId === root);
    }, 20_000);
    await settled(root);
    const tree = await caller.inspector.tree({ threadId: root });
    expect(tree.nodes).toHaveLength(2);
    // Applied in order, the patches converge on the tree the query gives (the last ones may still be on their way).
    const shape = (nodes: typeof tree.nodes) => nodes.map((n) => [n.id, n.registryStatus, n.threadStatus, n.own.requests, n.subtree.requests]);
    while (JSON.stringify(shape(applyPatches(fromSnapshot(first), patches).nodes)) !== JSON.stringify(shape(tree.nodes))) await next();
    void feed.return?.(undefined);
    const spawned = patches.flatMap((p) => p.facts).find((f) => f.parentId === root)!;
    const batch = { threadIds: patches.flatMap((p) => p.threadIds) };
    expect(patches.every((p) => p.kind === "patch")).toBe(true);
    expect(spawned).toMatchObject({ agentId: "res_duo", name: "Inbox watcher", resumable: true, blocking: false });
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
    const logs = (await t.app.persistence.llmLogs.totals([root, child.id])).requests;
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
