import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { readSse } from "../helpers/sse";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "sk-canary-key-777" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

async function newThread(agent: string): Promise<string> {
  return (await api(t.url, "POST", "/api/threads", { agent_id: agent })).body.threadId;
}
async function say(id: string, content: string, attachments?: unknown[]) {
  expect((await api(t.url, "POST", `/api/threads/${id}/messages`, { content, ...(attachments ? { attachments } : {}) })).status).toBe(202);
  return waitForThread(t.url, id);
}

/** Turn 1 calls echo then answers; turn 2 answers. Returns the logged request of turn 2. */
async function twoTurns(agent: string): Promise<any[]> {
  fake.setScript([
    { when: { last_contains: "first" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "one" } }] } },
    { when: { last_role: "tool" }, times: 1, respond: { content: "echoed one" } },
    { respond: { content: "second answer" } },
  ]);
  const id = await newThread(agent);
  await say(id, "first");
  await say(id, "second");
  return fake.getRequests().at(-1)!.messages.slice(1);
}

describe("includePastTools", () => {
  it("false (default): tool calls and results of earlier turns are left out of the context", async () => {
    expect(await twoTurns("chat")).toEqual([
      { role: "user", content: "first" },
      { role: "assistant", content: "echoed one" },
      { role: "user", content: "second" },
    ]);
  });

  it("true: earlier turns keep their tool calls, each followed by its result", async () => {
    const messages = await twoTurns("past_tools");
    expect(messages.map((m: any) => [m.role, m.content])).toEqual([
      ["user", "first"],
      ["assistant", null],
      ["tool", "echo: one"],
      ["assistant", "echoed one"],
      ["user", "second"],
    ]);
    expect(messages[1].tool_calls[0].function).toEqual({ name: "echo", arguments: '{"text":"one"}' });
    expect(messages[2].tool_call_id).toBe(messages[1].tool_calls[0].id);
  });
});

describe("recentImageThreshold", () => {
  const pixel = (n: number) => Buffer.from(`fake-png-${n}`).toString("base64");
  const image = (n: number) => ({ name: `pic${n}.png`, mimeType: "image/png", data: pixel(n) });

  async function twoImages(agent: string): Promise<any[]> {
    fake.setScript([{ respond: { content: "nice" } }]);
    const id = await newThread(agent);
    await say(id, "look 1", [image(1)]);
    await say(id, "look 2", [image(2)]);
    return fake.getRequests().at(-1)!.messages.filter((m: any) => m.role === "user");
  }

  it("only the most recent messages keep their images; older ones show the path", async () => {
    const [older, recent] = await twoImages("gallery");
    expect(older.content).toBe("look 1\n[image attachment: /attachments/pic1.png]");
    expect(recent.content).toEqual([
      { type: "text", text: "look 2" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${pixel(2)}` } },
    ]);
  });

  it("with the default threshold (10) both messages keep their images", async () => {
    const [older] = await twoImages("chat");
    expect(older.content[1]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${pixel(1)}` } });
  });
});

describe("providerOptions and reasoning in the request body", () => {
  it("the prompt's provider options are merged over the model's; reasoning is mapped", async () => {
    fake.setScript([{ respond: { content: "tuned answer" } }]);
    const id = await newThread("tuned");
    await say(id, "hello");
    const body = fake.getRequests()[0]!.body;
    expect(body).toMatchObject({
      model: "tuned-model",
      temperature: 0.7,
      seed: 42,
      top_p: 0.5,
      reasoning_effort: "high",
      reasoning: { effort: "high", exclude: true },
      stream: true,
    });
  });
});

describe("llm.request events", () => {
  it("announce each attempt before it is sent: model, step and message count, never the key", async () => {
    fake.setScript([{ respond: { content: "hi there" } }]);
    const id = await newThread("chat");
    await say(id, "hello");
    const events = await readSse(`${t.url}/api/threads/${id}/stream`, {
      until: (ev) => ev.some((e) => e.data.type === "thread.stopped"),
    });
    const types = events.map((e) => e.data.type);
    const request = events.find((e) => e.data.type === "llm.request")!.data;
    expect(request).toMatchObject({ model: "primary", modelId: "primary-model", provider: "openai", attempt: 1, step: 1, messageCount: 2, toolCount: 2 });
    expect(types.indexOf("step.started")).toBeLessThan(types.indexOf("llm.request"));
    expect(types.indexOf("llm.request")).toBeLessThan(types.indexOf("llm.response"));
    expect(JSON.stringify(events)).not.toContain("sk-canary-key-777");
  });

  it("a fast tool call stores its announcement with its answer: each step's events once, in order", async () => {
    fake.setScript([
      { when: { last_role: "user" }, respond: { tool_calls: [{ name: "echo", arguments: { text: "one" } }] } },
      { respond: { content: "echoed" } },
    ]);
    const id = await newThread("chat");
    await say(id, "go");
    const events = await readSse(`${t.url}/api/threads/${id}/stream`, {
      until: (ev) => ev.some((e) => e.data.type === "thread.stopped"),
    });
    const types = events.map((e) => e.data.type).filter((type: string) => /^(step\.|llm\.|message\.created|tool\.)/.test(type));
    expect(types).toEqual([
      "message.created", // the user's message
      "step.started",
      "llm.request",
      "llm.response",
      "message.created",
      "step.completed",
      "tool.started",
      "message.created",
      "tool.completed",
      "step.started",
      "llm.request",
      "llm.response",
      "message.created",
      "step.completed",
    ]);
    const seqs = events.map((e) => e.id!);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it("a slow model's step is announced while it works, long before its answer", async () => {
    fake.setScript([{ delay_ms: 600, respond: { content: "slowly" } }]);
    const id = await newThread("chat");
    const arrivals: { type: string; at: number }[] = [];
    const started = performance.now();
    const reading = readSse(`${t.url}/api/threads/${id}/stream`, {
      until: (ev) => {
        for (const e of ev.slice(arrivals.length)) arrivals.push({ type: e.data.type, at: performance.now() - started });
        return ev.some((e) => e.data.type === "thread.stopped");
      },
    });
    await say(id, "hello");
    await reading;
    const at = (type: string) => arrivals.find((a) => a.type === type)!.at;
    expect(at("llm.response") - at("step.started")).toBeGreaterThan(400);
    expect(at("llm.request")).toBeLessThan(at("llm.response"));
  });
});

describe("required variables at thread creation", () => {
  it("an empty or blank value counts as missing: 400 naming it", async () => {
    for (const value of ["", "   "]) {
      const res = await api(t.url, "POST", "/api/threads", { agent_id: "keyed", env: { REGION: "eu", API_TOKEN: value } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("API_TOKEN");
      expect(res.body.error.details.missing).toEqual(["API_TOKEN"]);
    }
    const both = await api(t.url, "POST", "/api/threads", { agent_id: "keyed", env: { REGION: " ", API_TOKEN: "" } });
    expect(both.body.error.details.missing.sort()).toEqual(["API_TOKEN", "REGION"]);
  });
});
