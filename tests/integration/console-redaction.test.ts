import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { ServerProcess } from "../helpers/server-process";
import { api, fixtureAgents, waitFor, waitForThread } from "../helpers/test-app";

/**
 * What a tool, a hook and an effect print with `console` reaches the server's output with every secret value masked,
 * seen from outside: the app runs as its own process and the test reads its stdout and stderr.
 */
const CANARY = "tok-console-canary-9f3e1";
let fake: FakeLlm;
let server: ServerProcess;

beforeAll(async () => {
  fake = await startFakeLlm();
  server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
  await server.start();
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

describe("console output of user code", () => {
  it("is printed with secret values masked, from tools, hooks and effects", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "print_secret", arguments: {} }] } },
      { respond: { content: "done" } },
    ]);
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "printer", env: { BACKEND_TOKEN: CANARY }, env_types: { BACKEND_TOKEN: "secret" } });
    await api(server.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "print it" });
    await waitForThread(server.url, body.threadId);
    await waitFor(async () => {
      const effects = (await api(server.url, "GET", `/api/threads/${body.threadId}/effects`)).body.effects;
      return effects?.[0]?.status === "done";
    }, 15_000);
    // Each print happened, masked…
    await waitFor(async () => server.output.includes("effect printed ••••"));
    expect(server.output).toContain("tool printed ••••");
    expect(server.output).toMatch(/tool printed an object \{ auth: \{ token: '••••' \} \}/);
    expect(server.output).toContain("hook printed ••••");
    // …and the value itself is nowhere in the output.
    expect(server.output).not.toContain(CANARY);
  });
});
