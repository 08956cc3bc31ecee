import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

/**
 * The fence in a step's transaction: a terminate or stop committed after the model answered but before the answer is
 * stored (here from a `before_create_message` hook, standing for another process whose abort message never came)
 * discards the answer, exactly as an abort during the request would. Runs on SQLite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
let fake: FakeLlm;
let t: TestApp;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-fence-"));

beforeAll(async () => {
  fake = await startFakeLlm();
  const agents = path.join(tmp, "agents");
  fs.cpSync(fixtureAgents, agents, { recursive: true });
  fs.writeFileSync(
    path.join(agents, "hooks/late_control.ts"),
    `import { defineHook } from "@studio/spec";

/** For an answer saying LATE: terminate (or, with STOP, stop) the thread through the API before it is stored. */
export default defineHook({
  id: "late_control",
  hook: "before_create_message",
  execute: async (state, message) => {
    const text = String(message.content ?? "");
    if (message.role === "assistant" && text.includes("LATE")) {
      const action = text.includes("STOP") ? "stop" : "terminate";
      await fetch(\`\${process.env.FENCE_TEST_URL}/api/threads/\${state.threadId}/\${action}\`, { method: "POST" });
    }
    return message;
  },
});
`,
  );
  fs.writeFileSync(
    path.join(agents, "agents/fenced.ts"),
    `import { defineAgent } from "@studio/spec";

export default defineAgent({ name: "fenced", type: "ai_human", hooks: ["late_control"], sideA: { prompt: "chat" } });
`,
  );
  t = await startTestApp({ agentsDir: agents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
  process.env.FENCE_TEST_URL = t.url;
});
afterAll(async () => {
  delete process.env.FENCE_TEST_URL;
  await t?.close();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const messages = async (id: string) => (await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages as any[];
const thread = async (id: string) => (await api(t.url, "GET", `/api/threads/${id}`)).body.thread;
const events = async (id: string) => JSON.stringify(await t.app.persistence.events.after(id, 0, 10_000));
const logs = async (id: string) => (await api(t.url, "GET", `/api/threads/${id}/logs?limit=100`)).body.logs as any[];

describe("a step whose thread was terminated or stopped before its answer was stored", () => {
  it("terminated: the answer is discarded, the request logged interrupted", async () => {
    fake.setScript([{ respond: { content: "LATE answer" } }]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "fenced" })).body.threadId as string;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "hello" });
    await waitFor(async () => ((await thread(id)).status === "terminated" && !t.app.runtime.deps.aborts.isRunning(id) ? true : null), 15_000);
    expect(fake.getRequests().length).toBeGreaterThanOrEqual(1);
    expect((await messages(id)).map((m) => m.content)).toEqual(["hello"]);
    expect(await events(id)).not.toContain("LATE answer");
    expect((await logs(id)).map((l) => l.status)).toEqual(["interrupted"]);
  });

  it("stopped: the answer is discarded and the stop applied (user_stop); the thread goes on", async () => {
    fake.setScript([{ when: { last_contains: "first" }, times: 1, respond: { content: "LATE STOP answer" } }, { respond: { content: "fine" } }]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "fenced" })).body.threadId as string;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "first" });
    await waitFor(async () => {
      const th = await thread(id);
      return th.status === "idle" && !t.app.runtime.deps.aborts.isRunning(id) ? th : null;
    }, 15_000);
    expect((await thread(id)).stop_reason).toBe("user_stop");
    expect((await messages(id)).map((m) => m.content)).toEqual(["first"]);
    expect(await events(id)).not.toContain("LATE STOP answer");
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "again" });
    await waitFor(async () => ((await messages(id)).at(-1)?.content === "fine" ? true : null), 15_000);
  });
});
