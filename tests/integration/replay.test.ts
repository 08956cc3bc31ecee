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
const logs = async (id: string) => (await alice("GET", `/api/threads/${id}/logs`)).body.logs as any[];

/** A finished exchange of the `chat` agent (model `primary`, fallback `backup`): its one request-log row. */
async function loggedExchange(): Promise<{ id: string; logId: string }> {
  fake.setScript([{ when: { model: "primary-model", last_contains: "capital" }, respond: { content: "Paris." } }]);
  const id = (await alice("POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
  await alice("POST", `/api/threads/${id}/messages`, { content: "What is the capital of France?" });
  await waitFor(async () => (await messages(id)).at(-1)?.content === "Paris.");
  await waitFor(async () => ((await logs(id)).length === 1 && (await logs(id))[0].status === "success" ? true : null));
  const logId = (await logs(id))[0].id as string;
  fake.clearRequests();
  return { id, logId };
}

describe("POST /api/threads/:id/logs/:logId/replay", () => {
  it("sends the logged request again to the same model and answers old and new side by side, leaving the thread as it was", async () => {
    const { id, logId } = await loggedExchange();
    const before = { messages: await messages(id), logs: await logs(id) };
    fake.clearRequests();
    fake.setScript([{ when: { model: "primary-model", last_contains: "capital" }, respond: { content: "It is Paris." } }]);
    const res = await alice("POST", `/api/threads/${id}/logs/${logId}/replay`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ logId, edited: false });
    expect(res.body.original).toMatchObject({ model: "primary", modelId: "primary-model", status: "success", content: "Paris." });
    expect(res.body.replay).toMatchObject({ model: "primary", modelId: "primary-model", status: "success", content: "It is Paris.", toolCalls: [] });
    expect(res.body.replay.usage.inputTokens).toBeGreaterThan(0);
    expect(res.body.replay.cost).toBeGreaterThan(0);
    expect(res.body.replay.latencyMs).toBeGreaterThanOrEqual(0);
    // The model server saw the same conversation again.
    const sent = fake.getRequests();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.model).toBe("primary-model");
    expect(sent[0]!.messages.map((m: any) => [m.role, m.content])).toEqual([
      [sent[0]!.messages[0]!.role, sent[0]!.messages[0]!.content],
      ["user", "What is the capital of France?"],
    ]);
    // Nothing of the thread changed: no message, no request-log row.
    expect(await messages(id)).toEqual(before.messages);
    expect(await logs(id)).toEqual(before.logs);
  });

  it("replays on another model, priced by that model", async () => {
    const { id, logId } = await loggedExchange();
    fake.setScript([{ when: { model: "backup-model" }, respond: { content: "Paris, France." } }]);
    const res = await alice("POST", `/api/threads/${id}/logs/${logId}/replay`, { model: "backup" });
    expect(res.status).toBe(200);
    expect(res.body.replay).toMatchObject({ model: "backup", modelId: "backup-model", content: "Paris, France." });
    const { usage, cost } = res.body.replay;
    // backup: $0.5 in / $1 out per million tokens.
    expect(cost).toBeCloseTo((usage.inputTokens * 0.5 + usage.outputTokens * 1) / 1e6, 12);
    expect(fake.getRequests().map((r) => r.model)).toEqual(["backup-model"]);
  });

  it("sends an edited body and says so; tool calls of the new answer are listed", async () => {
    const { id, logId } = await loggedExchange();
    const original = (await logs(id))[0].request;
    expect(original?.messages).toBeTruthy();
    const edited = { ...original, messages: [...original.messages.slice(0, -1), { role: "user", content: "What is the capital of Italy?" }] };
    fake.setScript([{ when: { last_contains: "Italy" }, respond: { tool_calls: [{ name: "lookup", arguments: { city: "Rome" } }] } }]);
    const res = await alice("POST", `/api/threads/${id}/logs/${logId}/replay`, { body: edited });
    expect(res.status).toBe(200);
    expect(res.body.edited).toBe(true);
    expect(res.body.replay.toolCalls).toEqual([expect.objectContaining({ name: "lookup", arguments: JSON.stringify({ city: "Rome" }) })]);
    expect(fake.getRequests()[0]!.messages.at(-1)!.content).toBe("What is the capital of Italy?");
  });

  it("answers 4xx with the field for bad input, 404 for another user's thread or another thread's log", async () => {
    const { id, logId } = await loggedExchange();
    const unknownModel = await alice("POST", `/api/threads/${id}/logs/${logId}/replay`, { model: "nope" });
    expect(unknownModel.status).toBe(400);
    expect(JSON.stringify(unknownModel.body)).toContain("model");
    const badBody = await alice("POST", `/api/threads/${id}/logs/${logId}/replay`, { body: { messages: [] } });
    expect(badBody.status).toBe(400);
    expect(JSON.stringify(badBody.body)).toContain("messages");
    const extra = await alice("POST", `/api/threads/${id}/logs/${logId}/replay`, { temperature: 1 });
    expect(extra.status).toBe(400);
    expect((await bob("POST", `/api/threads/${id}/logs/${logId}/replay`, {})).status).toBe(404);
    const other = (await alice("POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    expect((await alice("POST", `/api/threads/${other}/logs/${logId}/replay`, {})).status).toBe(404);
    expect(fake.getRequests()).toHaveLength(0);
  });
});
