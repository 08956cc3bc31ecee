import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeLlm } from "../../scripts/fake-llm/server";
import type { As } from "../helpers/accounts";
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
const thread = async (id: string) => (await alice("GET", `/api/threads/${id}`)).body.thread;
const idle = (id: string) => waitFor(async () => ((await thread(id)).status === "idle" ? true : null), 20_000);

/** A chat thread with two exchanges: one → "reply to one", two → "reply to two". */
async function twoExchanges(): Promise<string> {
  fake.setScript([
    { when: { last_contains: "one" }, respond: { content: "reply to one" } },
    { when: { last_contains: "edited" }, respond: { content: "reply to the edit" } },
    { when: { last_contains: "two" }, respond: { content: "reply to two" } },
  ]);
  const id = (await alice("POST", "/api/threads", { agent_id: "chat", tags: ["mine"], env: { NOTE: "kept" } })).body.threadId as string;
  await alice("POST", `/api/threads/${id}/messages`, { content: "one" });
  await waitFor(async () => (await messages(id)).at(-1)?.content === "reply to one");
  await alice("POST", `/api/threads/${id}/messages`, { content: "two" });
  await waitFor(async () => (await messages(id)).at(-1)?.content === "reply to two");
  await idle(id);
  return id;
}

describe("POST /api/threads/:id/fork", () => {
  it("copies the history up to the message into a new thread (same agent, env, tags plus forked-from) and leaves the original as it was", async () => {
    const id = await twoExchanges();
    const original = await messages(id);
    const at = original[1];
    expect(at.content).toBe("reply to one");
    fake.clearRequests();
    const res = await alice("POST", `/api/threads/${id}/fork`, { messageId: at.id });
    expect(res.status).toBe(201);
    const forkId = res.body.threadId;
    expect(forkId).not.toBe(id);
    const fork = await thread(forkId);
    expect(fork).toMatchObject({ agent_id: "chat", status: "idle", forked_from: { thread_id: id, message_id: at.id, edited: false }, user_id: alice.id });
    expect(fork.tags).toEqual(["mine", `forked-from:${id}`]);
    expect(fork.env).toEqual({ NOTE: "kept" });
    expect((await messages(forkId)).map((m) => [m.role, m.content])).toEqual([
      ["user", "one"],
      ["assistant", "reply to one"],
    ]);
    // An assistant reply at the end calls for nothing: no model request; the original is untouched.
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.getRequests()).toHaveLength(0);
    expect(await messages(id)).toEqual(original);
    expect((await thread(id)).forked_from).toBeNull();
  });

  it("with an edit, replaces that message's content and starts the fork when the message calls for a reply", async () => {
    const id = await twoExchanges();
    const original = await messages(id);
    fake.clearRequests();
    const res = await alice("POST", `/api/threads/${id}/fork`, { messageId: original[2].id, edit: { content: "two, edited" } });
    expect(res.status).toBe(201);
    const forkId = res.body.threadId;
    await waitFor(async () => (await messages(forkId)).at(-1)?.content === "reply to the edit");
    expect((await messages(forkId)).map((m) => [m.role, m.content])).toEqual([
      ["user", "one"],
      ["assistant", "reply to one"],
      ["user", "two, edited"],
      ["assistant", "reply to the edit"],
    ]);
    const sent = fake.getRequests();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.messages.map((m: any) => m.content)).toContain("two, edited");
    expect(sent[0]!.messages.map((m: any) => m.content)).not.toContain("two");
    expect((await thread(forkId)).forked_from.edited).toBe(true);
    expect(await messages(id)).toEqual(original);
  });

  it("regenerate: forks at the message before an assistant reply and answers it again; the origin keeps its reply", async () => {
    const id = await twoExchanges();
    const original = await messages(id);
    fake.setScript([{ when: { last_contains: "two" }, respond: { content: "another reply to two" } }]);
    fake.clearRequests();
    const res = await alice("POST", `/api/threads/${id}/fork`, { messageId: original[3].id, regenerate: true });
    expect(res.status).toBe(201);
    const forkId = res.body.threadId;
    await waitFor(async () => (await messages(forkId)).at(-1)?.content === "another reply to two");
    expect((await messages(forkId)).map((m) => [m.role, m.content])).toEqual([
      ["user", "one"],
      ["assistant", "reply to one"],
      ["user", "two"],
      ["assistant", "another reply to two"],
    ]);
    expect((await thread(forkId)).forked_from).toEqual({ thread_id: id, message_id: original[2].id, edited: false, regenerated_message_id: original[3].id });
    expect(fake.getRequests()).toHaveLength(1);
    expect(await messages(id)).toEqual(original);
  });

  it("regenerate after tool calls forks at the caller, so the model answers the tool results again", async () => {
    fake.setScript([
      { when: { system_contains: "You are the approval boss.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "appr_mid", arguments: { task: "Organise the payment" } }] } },
      { when: { system_contains: "You are the approval manager.", last_contains: "Organise the payment" }, times: 1, respond: { tool_calls: [{ name: "appr_leaf", arguments: { task: "Pay Bea 30" } }] } },
      { when: { system_contains: "You are the approval clerk.", last_contains: "Pay Bea 30" }, times: 1, respond: { tool_calls: [{ name: "pay", arguments: { amount: 30, to: "bea" } }] } },
      { when: { system_contains: "You are the approval clerk.", last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "paid bea" } }] } },
      { when: { system_contains: "You are the approval manager.", last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed" } }] } },
      { when: { system_contains: "You are the approval boss.", last_role: "tool" }, times: 1, respond: { content: "All paid." } },
      { when: { system_contains: "You are the approval boss.", last_role: "tool" }, respond: { content: "Everything is paid." } },
    ]);
    const root = (await alice("POST", "/api/threads", { agent_id: "appr_boss" })).body.threadId as string;
    await alice("POST", `/api/threads/${root}/messages`, { content: "Pay Bea" });
    await waitFor(async () => (await messages(root)).at(-1)?.content === "All paid.", 30_000);
    await idle(root);
    const history = await messages(root);
    const reply = history.at(-1);
    const caller = history.find((m) => m.tool_calls?.length);
    fake.clearRequests();
    const forkId = (await alice("POST", `/api/threads/${root}/fork`, { messageId: reply.id, regenerate: true })).body.threadId;
    await waitFor(async () => (await messages(forkId)).at(-1)?.content === "Everything is paid.", 20_000);
    expect((await thread(forkId)).forked_from).toMatchObject({ message_id: caller.id, regenerated_message_id: reply.id });
    expect((await messages(forkId)).map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(fake.getRequests()).toHaveLength(1);
    expect(await messages(root)).toEqual(history);
  }, 60_000);

  it("a thread with children: the fork refers to the original children (read-only), never re-runs or changes the tree", async () => {
    fake.setScript([
      { when: { system_contains: "You are the approval boss.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "appr_mid", arguments: { task: "Organise the payment" } }] } },
      { when: { system_contains: "You are the approval manager.", last_contains: "Organise the payment" }, times: 1, respond: { tool_calls: [{ name: "appr_leaf", arguments: { task: "Pay Bea 30" } }] } },
      { when: { system_contains: "You are the approval clerk.", last_contains: "Pay Bea 30" }, times: 1, respond: { tool_calls: [{ name: "pay", arguments: { amount: 30, to: "bea" } }] } },
      { when: { system_contains: "You are the approval clerk.", last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "paid bea" } }] } },
      { when: { system_contains: "You are the approval manager.", last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed" } }] } },
      { when: { system_contains: "You are the approval boss.", last_role: "tool" }, respond: { content: "All paid." } },
    ]);
    const root = (await alice("POST", "/api/threads", { agent_id: "appr_boss" })).body.threadId as string;
    await alice("POST", `/api/threads/${root}/messages`, { content: "Pay Bea" });
    await waitFor(async () => (await messages(root)).at(-1)?.content === "All paid.", 30_000);
    await idle(root);
    const [mid] = (await alice("GET", `/api/threads?parent_id=${root}`)).body.threads;
    const midMessages = await messages(mid.id);
    const spawning = (await messages(root)).find((m) => m.tool_calls?.length);
    fake.clearRequests();

    const forkId = (await alice("POST", `/api/threads/${root}/fork`, { messageId: spawning.id })).body.threadId;
    // The copied history ends with the spawning call's result: the fork's boss answers it, and only the boss.
    await waitFor(async () => (await messages(forkId)).at(-1)?.content === "All paid.", 20_000);
    expect((await messages(forkId)).map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(fake.getRequests().map((r) => String(r.messages[0]!.content))).toEqual([expect.stringContaining("approval boss")]);
    // The model saw the copied call and its result.
    expect(fake.getRequests()[0]!.messages.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    const subagents = (await alice("GET", `/api/threads/${forkId}/subagents`)).body.subagents;
    expect(subagents).toEqual([expect.objectContaining({ reference: mid.id, name: "appr_mid", readOnly: true, forkedFrom: root })]);
    // The fork has no children of its own; the original tree is as it was.
    expect((await alice("GET", `/api/threads?parent_id=${forkId}`)).body.threads).toEqual([]);
    expect((await alice("GET", `/api/threads?parent_id=${root}`)).body.threads.map((x: any) => x.id)).toEqual([mid.id]);
    expect(await messages(mid.id)).toEqual(midMessages);
    // The referenced transcript stays readable from the fork's owner.
    expect((await alice("GET", `/api/threads/${mid.id}/messages`)).status).toBe(200);
  }, 60_000);

  it("bad input is a 400 naming the field; another user's thread is a 404", async () => {
    const id = await twoExchanges();
    const [first] = await messages(id);
    const missing = await alice("POST", `/api/threads/${id}/fork`, {});
    expect([missing.status, missing.body.error.details[0].path]).toEqual([400, "messageId"]);
    const unknown = await alice("POST", `/api/threads/${id}/fork`, { messageId: "no-such-message" });
    expect([unknown.status, unknown.body.error.details[0].path]).toEqual([400, "messageId"]);
    const blank = await alice("POST", `/api/threads/${id}/fork`, { messageId: first.id, edit: { content: "  " } });
    expect([blank.status, blank.body.error.details[0].path]).toEqual([400, "edit.content"]);
    expect((await bob("POST", `/api/threads/${id}/fork`, { messageId: first.id })).status).toBe(404);
    // Only an assistant reply regenerates, and never together with an edit.
    const notReply = await alice("POST", `/api/threads/${id}/fork`, { messageId: first.id, regenerate: true });
    expect([notReply.status, notReply.body.error.details[0].path]).toEqual([400, "regenerate"]);
    const reply = (await messages(id))[1];
    const both = await alice("POST", `/api/threads/${id}/fork`, { messageId: reply.id, regenerate: true, edit: { content: "x" } });
    expect([both.status, both.body.error.details[0].path]).toEqual([400, "regenerate"]);
    const notBool = await alice("POST", `/api/threads/${id}/fork`, { messageId: reply.id, regenerate: "yes" });
    expect([notBool.status, notBool.body.error.details[0].path]).toEqual([400, "regenerate"]);
  });
});
