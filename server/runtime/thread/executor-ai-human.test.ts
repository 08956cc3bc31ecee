import { afterEach, describe, expect, it } from "vitest";
import { chatDefinitions } from "../testing/fixtures";
import { createTestRuntime, type TestRuntime } from "../testing/harness";

let t: TestRuntime;
afterEach(async () => t?.close());

async function chat(defs = chatDefinitions(), script: Parameters<typeof createTestRuntime>[0]["script"] = []) {
  t = await createTestRuntime({ definitions: defs, script });
  const thread = await t.runtime.createThread({ agentId: "chat" });
  return thread;
}

const messagesOf = async (threadId: string) => t.persistence.messages.list(threadId, { includeSilent: true });

describe("ai_human: a user message starts side A, which steps until its turn ends", () => {
  it("answers with text, then waits for the human (stopOnResponse, reason `response`)", async () => {
    const thread = await chat(undefined, [{ content: "Hello there" }]);
    expect(thread.status).toBe("idle");
    await t.runtime.postMessage(thread.id, { content: "Hi" });
    const done = await t.settle(thread.id);
    expect(done.status).toBe("idle");
    expect(done.stopReason).toBe("response");
    const msgs = await messagesOf(thread.id);
    expect(msgs.map((m) => [m.role, m.content])).toEqual([["user", "Hi"], ["assistant", "Hello there"]]);
    const req = t.llm.requests[0]!;
    expect(req.messages[0]).toEqual({ role: "system", content: "You are helpful." });
    expect(req.messages.at(-1)).toEqual({ role: "user", content: "Hi" });
    expect(req.tools?.map((x) => x.function.name)).toEqual(["echo", "explode", "finish"]);
  });

  it("runs tools and feeds their results back until the model answers", async () => {
    const thread = await chat(undefined, [{ toolCalls: [{ name: "echo", args: { text: "ping" } }] }, { content: "Done: ping" }]);
    await t.runtime.postMessage(thread.id, { content: "echo ping" });
    await t.settle(thread.id);
    const msgs = await messagesOf(thread.id);
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(msgs[2]).toMatchObject({ content: "echo: ping", toolStatus: "success", name: "echo" });
    const second = t.llm.requests[1]!.messages;
    expect(second.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ function: { name: "echo" } }] });
    expect(second.at(-1)).toMatchObject({ role: "tool", content: "echo: ping" });
  });

  it("turns an unknown tool, malformed JSON, invalid arguments and a throwing tool into tool errors the model sees", async () => {
    const thread = await chat(undefined, [
      {
        toolCalls: [
          { name: "nope", args: {} },
          { name: "echo", rawArguments: "{not json" },
          { name: "echo", args: { text: 5 } },
          { name: "explode", args: {} },
        ],
      },
      { content: "Sorry" },
    ]);
    await t.runtime.postMessage(thread.id, { content: "go" });
    await t.settle(thread.id);
    const tools = (await messagesOf(thread.id)).filter((m) => m.role === "tool");
    expect(tools.map((m) => m.toolStatus)).toEqual(["error", "error", "error", "error"]);
    expect(tools[0]!.content).toMatch(/Tool nope is not available at this step\. Available tools: echo, explode, finish/);
    expect(tools[1]!.content).toMatch(/not valid JSON/);
    expect(tools[2]!.content).toMatch(/Invalid arguments for echo: text:/);
    expect(tools[3]!.content).toMatch(/Tool explode failed: boom/);
    expect(t.llm.requests).toHaveLength(2);
  });

  it("ends the turn on the stop tool and stores its response property as the assistant content", async () => {
    const defs = chatDefinitions({ sideA: { stopTool: "finish", stopToolResponseProperty: "note" } });
    const thread = await chat(defs, [{ content: "thinking", toolCalls: [{ name: "finish", args: { note: "All set." } }] }]);
    await t.runtime.postMessage(thread.id, { content: "go" });
    const done = await t.settle(thread.id);
    expect(done.stopReason).toBe("stop_tool");
    const assistant = (await messagesOf(thread.id)).find((m) => m.role === "assistant")!;
    expect(assistant.content).toBe("All set.");
  });

  it("enforces the per-side maxSteps limit (reason `max_steps`)", async () => {
    const defs = chatDefinitions({ sideA: { maxSteps: 2 } });
    const call = { toolCalls: [{ name: "echo", args: { text: "x" } }] };
    const thread = await chat(defs, [call, call]);
    await t.runtime.postMessage(thread.id, { content: "loop" });
    const done = await t.settle(thread.id);
    expect(done.stopReason).toBe("max_steps");
    expect(t.llm.requests).toHaveLength(2);
  });

  it("enforces the global step ceiling per activation (reason `max_total_steps`)", async () => {
    const call = { toolCalls: [{ name: "echo", args: { text: "x" } }] };
    t = await createTestRuntime({ definitions: chatDefinitions(), script: [call, call, call], maxTotalSteps: 3 });
    const thread = await t.runtime.createThread({ agentId: "chat" });
    await t.runtime.postMessage(thread.id, { content: "loop" });
    const done = await t.settle(thread.id);
    expect(done.stopReason).toBe("max_total_steps");
    expect(t.llm.requests).toHaveLength(3);
  });

  it("counts the ceiling afresh in each activation, whether a delivered message or a continue starts it", async () => {
    const call = { toolCalls: [{ name: "echo", args: { text: "x" } }] };
    t = await createTestRuntime({ definitions: chatDefinitions(), script: [call, call, { content: "after a message" }, call, call, call], maxTotalSteps: 2 });
    const thread = await t.runtime.createThread({ agentId: "chat" });
    await t.runtime.postMessage(thread.id, { content: "loop" });
    expect((await t.settle(thread.id)).stopReason).toBe("max_total_steps");
    await t.runtime.postMessage(thread.id, { content: "again" });
    const second = await t.settle(thread.id);
    expect(second.stopReason).toBe("response");
    expect(t.llm.requests).toHaveLength(3);
    expect(second.state.activationSteps).toBe(1);
    await t.runtime.requestContinue(thread.id);
    const third = await t.settle(thread.id);
    expect(third.stopReason).toBe("max_total_steps");
    expect(t.llm.requests).toHaveLength(5);
    expect(third.state.activationSteps).toBe(2);
  });

  it("with includeChat false, sends only what arrived since the side's previous turn", async () => {
    const defs = chatDefinitions({ promptFields: { includeChat: false } });
    const thread = await chat(defs, [{ content: "first answer" }, { content: "second answer" }]);
    await t.runtime.postMessage(thread.id, { content: "one" });
    await t.settle(thread.id);
    await t.runtime.postMessage(thread.id, { content: "two" });
    await t.settle(thread.id);
    const second = t.llm.requests[1]!.messages;
    expect(second.map((m) => m.role)).toEqual(["system", "user"]);
    expect(second[1]).toEqual({ role: "user", content: "two" });
  });

  it("queues a message posted while the thread works and delivers it before the next step", async () => {
    const thread = await chat(undefined, [
      { toolCalls: [{ name: "echo", args: { text: "a" } }], delayMs: 50 },
      { content: "saw both" },
    ]);
    await t.runtime.postMessage(thread.id, { content: "first" });
    await new Promise((r) => setTimeout(r, 10));
    await t.runtime.postMessage(thread.id, { content: "second" });
    await t.settle(thread.id);
    const msgs = await messagesOf(thread.id);
    expect(msgs.map((m) => `${m.role}:${m.content}`)).toEqual(["user:first", "assistant:null", "tool:echo: a", "user:second", "assistant:saw both"]);
  });

  it("stops the running step on user stop: `user_stop`, and continue runs on without a message", async () => {
    const thread = await chat(undefined, [{ content: "slow", delayMs: 5000 }, { content: "continued" }]);
    await t.runtime.postMessage(thread.id, { content: "go" });
    await new Promise((r) => setTimeout(r, 20));
    const stopped = await t.runtime.stop(thread.id);
    expect(stopped.stopReason).toBe("user_stop");
    expect(stopped.status).toBe("idle");
    expect((await messagesOf(thread.id)).filter((m) => m.role === "assistant")).toHaveLength(0);
    await t.runtime.continue(thread.id);
    const done = await t.settle(thread.id);
    expect(done.stopReason).toBe("response");
    expect((await messagesOf(thread.id)).at(-1)!.content).toBe("continued");
  });

  it("terminate is final: the thread rejects new messages", async () => {
    const thread = await chat(undefined, []);
    const done = await t.runtime.terminate(thread.id);
    expect(done.status).toBe("terminated");
    expect(done.terminatedAt).toBeGreaterThan(0);
    await expect(t.runtime.postMessage(thread.id, { content: "hello?" })).rejects.toThrow(/terminated/);
  });
});
