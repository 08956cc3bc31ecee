import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { echoTool, model } from "../testing/fixtures";
import { createTestRuntime, type TestRuntime } from "../testing/harness";

let t: TestRuntime;
afterEach(async () => t?.close());

const defs = (subprompt: Record<string, unknown>) => ({
  models: [model, { name: "writer_model", provider: "openai", model: "fancy-writer" }],
  tools: [echoTool],
  prompts: [
    { name: "main", prompt: "Main prompt", model: "m", includeChat: true, tools: [{ name: "polish", ...subprompt }, "echo", "specialist"] },
    {
      name: "polish",
      toolDescription: "Polish a text",
      prompt: "You polish text.",
      model: "writer_model",
      requiredSchema: z.object({ text: z.string() }),
      tools: ["echo"],
    },
    { name: "specialist_prompt", prompt: "You are the specialist.", model: "m", includeChat: true, tools: ["echo"] },
  ],
  agents: [
    { name: "front", type: "ai_human", sideA: { prompt: "main" } },
    { name: "specialist", type: "ai_human", exposeAsTool: true, toolDescription: "Hand the user to the specialist", sideA: { prompt: "specialist_prompt" } },
  ],
});

describe("subprompts: one LLM step of another prompt, exposed as a tool", () => {
  it("sends the mapped user message to the subprompt's model and returns text and tool calls", async () => {
    t = await createTestRuntime({
      definitions: defs({ initUserMessageProperty: "text" }),
      script: [
        { toolCalls: [{ name: "polish", args: { text: "rough words" } }] },
        { content: "Polished words", toolCalls: [{ name: "echo", args: { text: "check" } }] },
        { content: "Here you go" },
      ],
    });
    const thread = await t.runtime.createThread({ agentId: "front" });
    await t.runtime.postMessage(thread.id, { content: "polish this" });
    await t.settle(thread.id);
    const sub = t.llm.requests[1]!;
    expect(sub.models[0]!.model).toBe("fancy-writer");
    expect(sub.messages).toEqual([
      { role: "system", content: "You polish text." },
      { role: "user", content: "rough words" },
    ]);
    const main = t.llm.requests[0]!;
    const polishTool = main.tools!.find((x) => x.function.name === "polish")!;
    expect(polishTool.function.description).toBe("Polish a text");
    expect(polishTool.function.parameters).toMatchObject({ type: "object", properties: { text: { type: "string" } } });
    const tool = (await t.persistence.messages.list(thread.id, { includeSilent: true })).find((m) => m.role === "tool")!;
    expect(tool.content).toBe('Polished words\n\nTool call echo({"text":"check"}) → echo: check');
  });

  it("leaves out the text and the tool calls when includeTextResponse / includeToolCalls are false", async () => {
    t = await createTestRuntime({
      definitions: defs({ initUserMessageProperty: "text", includeTextResponse: false, includeToolCalls: true }),
      script: [
        { toolCalls: [{ name: "polish", args: { text: "x" } }] },
        { content: "hidden text", toolCalls: [{ name: "echo", args: { text: "y" } }] },
        { content: "ok" },
      ],
    });
    const thread = await t.runtime.createThread({ agentId: "front" });
    await t.runtime.postMessage(thread.id, { content: "go" });
    await t.settle(thread.id);
    const tool = (await t.persistence.messages.list(thread.id, { includeSilent: true })).find((m) => m.role === "tool")!;
    expect(tool.content).toBe('Tool call echo({"text":"y"}) → echo: y');
  });

  it("reports a failing subprompt as a tool error when includeErrors is on", async () => {
    t = await createTestRuntime({
      definitions: defs({ initUserMessageProperty: "text" }),
      script: [{ toolCalls: [{ name: "polish", args: { text: "x" } }] }, { error: new Error("model down") }, { content: "sorry" }],
    });
    const thread = await t.runtime.createThread({ agentId: "front" });
    await t.runtime.postMessage(thread.id, { content: "go" });
    await t.settle(thread.id);
    const tool = (await t.persistence.messages.list(thread.id, { includeSilent: true })).find((m) => m.role === "tool")!;
    expect(tool.toolStatus).toBe("error");
    expect(tool.content).toBe("Subprompt polish failed: model down");
  });
});

describe("handoff: an ai_human agent called as a tool takes over the same thread", () => {
  it("switches the active agent, answers `Handoff complete`, and runs the new agent's side A prompt next", async () => {
    t = await createTestRuntime({
      definitions: defs({ initUserMessageProperty: "text" }),
      script: [{ toolCalls: [{ name: "specialist", args: {} }] }, { content: "Specialist here" }],
    });
    const thread = await t.runtime.createThread({ agentId: "front" });
    await t.runtime.postMessage(thread.id, { content: "I need the specialist" });
    const done = await t.settle(thread.id);
    expect(done.agentId).toBe("specialist");
    expect(done.rootAgentId).toBe("front");
    const msgs = await t.persistence.messages.list(thread.id, { includeSilent: true });
    expect(msgs.find((m) => m.role === "tool")!.content).toBe("Handoff complete");
    const second = t.llm.requests[1]!;
    expect(second.messages[0]).toEqual({ role: "system", content: "You are the specialist." });
    expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(t.events.some((e) => e.event.type === "thread.handoff")).toBe(true);
  });
});
