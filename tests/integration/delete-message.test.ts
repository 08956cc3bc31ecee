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
const status = async (id: string) => (await alice("GET", `/api/threads/${id}`)).body.thread.status as string;

describe("DELETE /api/threads/:id/messages/:messageId", () => {
  it("deletes an assistant message with the results of its tool calls; the next request never sees them", async () => {
    fake.setScript([
      { when: { last_contains: "echo hi" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "hi" } }] } },
      { when: { last_role: "tool" }, times: 1, respond: { content: "Echoed." } },
      { when: { last_contains: "again" }, respond: { content: "Fresh answer." } },
    ]);
    const id = (await alice("POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    await alice("POST", `/api/threads/${id}/messages`, { content: "echo hi" });
    await waitFor(async () => (await messages(id)).at(-1)?.content === "Echoed.");
    await waitFor(async () => ((await status(id)) === "idle" ? true : null));
    const [, call, result] = await messages(id);
    expect([call.role, result.role]).toEqual(["assistant", "tool"]);

    const alone = await alice("DELETE", `/api/threads/${id}/messages/${result.id}`);
    expect(alone.status).toBe(409);
    expect(alone.body.error.message).toContain("delete the assistant message that made the call");
    expect((await bob("DELETE", `/api/threads/${id}/messages/${call.id}`)).status).toBe(404);
    expect((await alice("DELETE", `/api/threads/${id}/messages/nope`)).status).toBe(404);

    const res = await alice("DELETE", `/api/threads/${id}/messages/${call.id}`);
    expect(res.status).toBe(200);
    expect(res.body.deleted).toEqual([call.id, result.id]);
    expect((await messages(id)).map((m) => [m.role, m.content])).toEqual([
      ["user", "echo hi"],
      ["assistant", "Echoed."],
    ]);

    fake.clearRequests();
    await alice("POST", `/api/threads/${id}/messages`, { content: "again" });
    await waitFor(async () => (await messages(id)).at(-1)?.content === "Fresh answer.");
    const sent = fake.getRequests()[0]!.messages.map((m: any) => m.role);
    expect(sent).toEqual(["system", "user", "assistant", "user"]);
  });

  it("refuses while the thread runs", async () => {
    fake.setScript([{ when: { last_contains: "slow" }, delay_ms: 3000, respond: { content: "Done slowly." } }]);
    const id = (await alice("POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    await alice("POST", `/api/threads/${id}/messages`, { content: "slow please" });
    const [user] = await waitFor(async () => ((await messages(id)).length > 0 ? messages(id) : null));
    await waitFor(async () => ((await status(id)) === "running" ? true : null));
    const res = await alice("DELETE", `/api/threads/${id}/messages/${user.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain("running");
    await waitFor(async () => (await messages(id)).at(-1)?.content === "Done slowly.");
  });
});
