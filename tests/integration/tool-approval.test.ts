import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeLlm } from "../../scripts/fake-llm/server";
import type { As } from "../helpers/accounts";
import { readSse } from "../helpers/sse";
import { waitFor, type TestApp } from "../helpers/test-app";
import { startTwoUserApp } from "../helpers/two-user-app";

let fake: FakeLlm;
let t: TestApp;
let alice: As & { id: string };
let bob: As & { id: string };

beforeAll(async () => {
  ({ fake, t, alice, bob } = await startTwoUserApp());
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

const messages = async (id: string) => (await alice("GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages as any[];
const pending = async (id: string) => (await alice("GET", `/api/threads/${id}/approvals`)).body.approvals as any[];
const status = async (id: string) => (await alice("GET", `/api/threads/${id}`)).body.thread;
const settled = (id: string, last: string) => waitFor(async () => (await messages(id)).at(-1)?.content === last, 20_000);

/** A thread of `agent` whose first step calls `tool` with `args`; the model answers `reply` once the tool answered. */
async function callTool(tool: string, args: Record<string, unknown>, reply: string, agent = "approver"): Promise<string> {
  fake.setScript([
    { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: tool, arguments: args }] } },
    { when: { last_role: "tool" }, respond: { content: reply } },
  ]);
  const id = (await alice("POST", "/api/threads", { agent_id: agent })).body.threadId as string;
  expect((await alice("POST", `/api/threads/${id}/messages`, { content: `please ${tool}` })).status).toBe(202);
  return id;
}

describe("tools with approval", () => {
  it("stops before running the call, says it waits, lists and streams it; approve runs the tool and the thread goes on", async () => {
    const id = await callTool("wire", { amount: 900, iban: "DE02" }, "Wired.");
    const [a] = await waitFor(async () => ((await pending(id)).length === 1 ? pending(id) : null));
    expect(a).toMatchObject({ thread_id: id, tool_name: "wire", arguments: { amount: 900, iban: "DE02" }, status: "pending", expires_at: null });
    expect(a.path).toEqual([{ thread_id: id, agent_id: "approver" }]);
    // Stopped before executing: no tool result, the model was asked once, and the thread says what it waits for.
    await new Promise((r) => setTimeout(r, 300));
    expect((await messages(id)).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(fake.getRequests()).toHaveLength(1);
    expect(await status(id)).toMatchObject({ status: "running", waiting_for: "approval", pending_approvals: 1 });

    const res = await alice("POST", `/api/threads/${id}/approvals/${a.tool_call_id}`, { decision: "approve" });
    expect(res.status).toBe(200);
    expect(res.body.approval).toMatchObject({ status: "approved", decided_by: alice.id, decided_args: null });
    await settled(id, "Wired.");
    const msgs = await messages(id);
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(msgs[2]).toMatchObject({ content: "wired 900 to DE02", tool_status: "success" });
    expect(msgs[2].metadata.approval).toMatchObject({ decision: "approved", edited: false });
    expect(await status(id)).toMatchObject({ status: "idle", waiting_for: null });
    expect(await pending(id)).toEqual([]);
    // The event log tells the story: requested, resolved, then the tool's start and result.
    const events = await readSse(`${t.url}/api/threads/${id}/stream`, {
      lastEventId: 0,
      headers: { authorization: `Bearer ${alice.token}` },
      until: (ev) => ev.some((e) => e.data.type === "tool.completed"),
    });
    const types = events.map((e) => e.data.type).filter((x) => x.startsWith("tool."));
    expect(types).toEqual(["tool.approval_requested", "tool.approval_resolved", "tool.started", "tool.completed"]);
    expect(events.find((e) => e.data.type === "tool.approval_resolved")!.data).toMatchObject({ decision: "approved", edited: false });
    expect(events.find((e) => e.data.type === "tool.started")!.data.attempt).toBe(1);
  });

  it("asks only when the tool's function says so (pay: amounts over 100); a call below runs as without approval", async () => {
    const id = await callTool("pay", { amount: 40, to: "ann" }, "Paid.");
    await settled(id, "Paid.");
    expect((await messages(id))[2].content).toBe("paid 40 to ann");
    expect((await messages(id))[2].metadata?.approval).toBeUndefined();
    expect((await alice("GET", `/api/threads/${id}/approvals?status=all`)).body.approvals).toEqual([]);
  });

  it("approve with edited arguments runs the tool with them, recorded as such; bad input is a 400 with the field path", async () => {
    const id = await callTool("pay", { amount: 500, to: "ann" }, "Paid less.");
    const [a] = await waitFor(async () => ((await pending(id)).length === 1 ? pending(id) : null));
    const url = `/api/threads/${id}/approvals/${a.tool_call_id}`;
    const wrongType = await alice("POST", url, { decision: "approve", args: { amount: "lots", to: "ann" } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details).toEqual([expect.objectContaining({ path: "args.amount" })]);
    const badDecision = await alice("POST", url, { decision: "maybe" });
    expect(badDecision.status).toBe(400);
    expect(badDecision.body.error.details[0].path).toBe("decision");
    const argsOnDeny = await alice("POST", url, { decision: "deny", args: { amount: 1 } });
    expect([argsOnDeny.status, argsOnDeny.body.error.details[0].path]).toEqual([400, "args"]);
    expect((await pending(id)).length).toBe(1);

    const ok = await alice("POST", url, { decision: "approve", args: { amount: 120, to: "ann" }, note: "capped" });
    expect(ok.body.approval).toMatchObject({ status: "approved", decided_args: { amount: 120, to: "ann" }, note: "capped" });
    await settled(id, "Paid less.");
    const tool = (await messages(id))[2];
    expect(tool.content).toBe("paid 120 to ann");
    expect(tool.metadata.approval).toMatchObject({ decision: "approved", edited: true, original_args: { amount: 500, to: "ann" }, args: { amount: 120, to: "ann" } });
    // A second decision is a conflict.
    expect((await alice("POST", url, { decision: "deny" })).status).toBe(409);
  });

  it("deny stores a tool error with the note, which the model sees; the tool does not run", async () => {
    const id = await callTool("wire", { amount: 5000, iban: "XX99" }, "Understood.");
    const [a] = await waitFor(async () => ((await pending(id)).length === 1 ? pending(id) : null));
    const res = await alice("POST", `/api/threads/${id}/approvals/${a.tool_call_id}`, { decision: "deny", note: "Unknown account, do not send." });
    expect(res.status).toBe(200);
    await settled(id, "Understood.");
    const tool = (await messages(id))[2];
    expect(tool.tool_status).toBe("error");
    expect(tool.content).toContain("denied");
    expect(tool.content).toContain("Unknown account, do not send.");
    expect(tool.metadata).toMatchObject({ error_code: "approval_denied", approval: { decision: "denied" } });
    const last = fake.getRequests().at(-1)!;
    expect(JSON.stringify(last.messages.at(-1))).toContain("Unknown account, do not send.");
  });

  it("a request past its approvalTimeout resolves on its own as a denial that says it expired", async () => {
    const id = await callTool("hasty_wire", { amount: 10 }, "Too late then.");
    const [a] = await waitFor(async () => ((await pending(id)).length === 1 ? pending(id) : null));
    const lifetime = Date.parse(a.expires_at) - Date.parse(a.created_at);
    expect(lifetime).toBeGreaterThan(1000);
    expect(lifetime).toBeLessThanOrEqual(1600);
    await settled(id, "Too late then.");
    const tool = (await messages(id))[2];
    expect(tool.tool_status).toBe("error");
    expect(tool.metadata.error_code).toBe("approval_expired");
    expect(tool.content).toContain("expired after 1.5 s");
    const expired = (await alice("GET", `/api/threads/${id}/approvals?status=expired`)).body.approvals;
    expect(expired.map((x: any) => x.tool_call_id)).toEqual([a.tool_call_id]);
    expect((await alice("POST", `/api/threads/${id}/approvals/${a.tool_call_id}`, { decision: "approve" })).status).toBe(409);
  });

  it("a user stop while a call waits answers the call; the request is no longer listed", async () => {
    const id = await callTool("wire", { amount: 3, iban: "BE68" }, "unused");
    const [a] = await waitFor(async () => ((await pending(id)).length === 1 ? pending(id) : null));
    expect((await alice("POST", `/api/threads/${id}/stop`, {})).status).toBeLessThan(300);
    await waitFor(async () => ((await status(id)).status === "idle" ? true : null));
    const tool = (await messages(id)).find((m) => m.role === "tool");
    expect([tool.tool_call_id, tool.tool_status]).toEqual([a.tool_call_id, "error"]);
    expect(await pending(id)).toEqual([]);
    expect(await status(id)).toMatchObject({ waiting_for: null });
    expect((await alice("POST", `/api/threads/${id}/approvals/${a.tool_call_id}`, { decision: "approve" })).status).toBe(404);
  });

  it("another user sees none of it: 404 on the list and on a decision, and the request stays pending", async () => {
    const id = await callTool("wire", { amount: 1, iban: "AL01" }, "Done.");
    const [a] = await waitFor(async () => ((await pending(id)).length === 1 ? pending(id) : null));
    expect((await bob("GET", `/api/threads/${id}/approvals`)).status).toBe(404);
    expect((await bob("POST", `/api/threads/${id}/approvals/${a.tool_call_id}`, { decision: "approve" })).status).toBe(404);
    expect((await pending(id)).map((x) => x.status)).toEqual(["pending"]);
    expect((await alice("POST", `/api/threads/${id}/approvals/unknown-call`, { decision: "approve" })).status).toBe(404);
    await alice("POST", `/api/threads/${id}/approvals/${a.tool_call_id}`, { decision: "deny" });
    await settled(id, "Done.");
  });
});

describe("approval inside subagents", () => {
  it("a grandchild's pending call is listed and streamed on the root with its path, and is approved from the root", async () => {
    fake.setScript([
      { when: { system_contains: "You are the approval boss.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "appr_mid", arguments: { task: "Organise the payment" } }] } },
      { when: { system_contains: "You are the approval manager.", last_contains: "Organise the payment" }, times: 1, respond: { tool_calls: [{ name: "appr_leaf", arguments: { task: "Pay Bea 300" } }] } },
      { when: { system_contains: "You are the approval clerk.", last_contains: "Pay Bea 300" }, times: 1, respond: { tool_calls: [{ name: "pay", arguments: { amount: 300, to: "bea" } }] } },
      { when: { system_contains: "You are the approval clerk.", last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "paid bea" } }] } },
      { when: { system_contains: "You are the approval manager.", last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed: paid bea" } }] } },
      { when: { system_contains: "You are the approval boss.", last_role: "tool" }, respond: { content: "All paid." } },
    ]);
    const root = (await alice("POST", "/api/threads", { agent_id: "appr_boss" })).body.threadId as string;
    await alice("POST", `/api/threads/${root}/messages`, { content: "Pay Bea" });
    const [a] = await waitFor(async () => ((await pending(root)).length === 1 ? pending(root) : null), 20_000);
    expect(a.tool_name).toBe("pay");
    expect(a.path.map((h: any) => h.agent_id)).toEqual(["appr_boss", "appr_mid", "appr_leaf"]);
    expect(a.path[0].thread_id).toBe(root);
    const leaf = a.path[2].thread_id;
    expect(a.thread_id).toBe(leaf);
    // The middle thread lists it too, with the path from itself.
    expect((await pending(a.path[1].thread_id))[0].path.map((h: any) => h.agent_id)).toEqual(["appr_mid", "appr_leaf"]);
    expect(await status(root)).toMatchObject({ waiting_for: "approval" });
    // Streamed on the root's own event log.
    const requested = await readSse(`${t.url}/api/threads/${root}/stream`, {
      lastEventId: 0,
      headers: { authorization: `Bearer ${alice.token}` },
      until: (ev) => ev.some((e) => e.data.type === "tool.approval_requested"),
    });
    expect(requested.find((e) => e.data.type === "tool.approval_requested")!.data).toMatchObject({ threadId: leaf, name: "pay" });
    // Another user cannot decide it through the root either.
    expect((await bob("POST", `/api/threads/${root}/approvals/${a.tool_call_id}`, { decision: "approve" })).status).toBe(404);

    expect((await alice("POST", `/api/threads/${root}/approvals/${a.tool_call_id}`, { decision: "approve" })).status).toBe(200);
    await settled(root, "All paid.");
    const leafTool = (await messages(leaf)).find((m) => m.role === "tool" && m.name === "pay");
    expect(leafTool.content).toBe("paid 300 to bea");
    const top = (await messages(root)).find((m) => m.role === "tool");
    expect(top.content).toContain("managed: paid bea");
    expect(await pending(root)).toEqual([]);
  }, 40_000);
});
