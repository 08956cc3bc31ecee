import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { ServerProcess } from "../helpers/server-process";
import { api, fixtureAgents, waitFor } from "../helpers/test-app";

let fake: FakeLlm;
let server: ServerProcess;

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => fake?.close());
afterEach(async () => server?.stop());

const get = async (p: string) => (await api(server.url, "GET", p)).body;
const messages = async (id: string) => (await get(`/api/threads/${id}/messages?includeSilent=true`)).messages as any[];
const pending = async (id: string) => (await get(`/api/threads/${id}/approvals`)).approvals as any[];

describe("an approval request across a restart", () => {
  it("a server killed while a call waits for approval loses nothing: the request is still listed, and approving it runs the tool once", async () => {
    fake.clearRequests();
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "wire", arguments: { amount: 70, iban: "FR76" } }] } },
      { when: { last_role: "tool" }, respond: { content: "Wired after the restart." } },
    ]);
    server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    await server.start();
    const id = (await api(server.url, "POST", "/api/threads", { agent_id: "approver" })).body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "wire it" });
    const [before] = await waitFor(async () => ((await pending(id)).length === 1 ? pending(id) : null), 15_000);

    await server.kill();
    await server.start();
    // The resumed thread finds its request again and keeps waiting: nothing ran, the model was not asked again.
    await new Promise((r) => setTimeout(r, 1000));
    const [after] = await pending(id);
    expect(after).toMatchObject({ id: before.id, tool_call_id: before.tool_call_id, status: "pending" });
    expect((await get(`/api/threads/${id}`)).thread).toMatchObject({ status: "running", waiting_for: "approval" });
    expect((await messages(id)).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(fake.getRequests()).toHaveLength(1);

    expect((await api(server.url, "POST", `/api/threads/${id}/approvals/${before.tool_call_id}`, { decision: "approve" })).status).toBe(200);
    await waitFor(async () => (await messages(id)).at(-1)?.content === "Wired after the restart.", 20_000);
    const msgs = await messages(id);
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(msgs[2].content).toBe("wired 70 to FR76");
    expect(fake.getRequests()).toHaveLength(2);
  }, 240_000);
});
