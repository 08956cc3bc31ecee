import { afterEach, describe, expect, it } from "vitest";
import { echoTool, model } from "../testing/fixtures";
import { createTestRuntime, type TestRuntime } from "../testing/harness";
import { storeResult } from "./result-message";
import { toolError } from "../kernel/tool-call-context";

let t: TestRuntime;
afterEach(async () => t?.close());

describe("storeResult", () => {
  it("stores one result per tool call: a second writer (a child's report, a re-run after a restart) gets the first back", async () => {
    t = await createTestRuntime({
      definitions: {
        models: [model],
        tools: [echoTool],
        prompts: [{ name: "main", prompt: "Main prompt", model: "m", includeChat: true, tools: ["echo"] }],
        agents: [{ name: "front", type: "ai_human", sideA: { prompt: "main" } }],
      },
      script: [{ toolCalls: [{ name: "echo", args: { text: "once" } }] }, { content: "done" }],
    });
    const thread = await t.runtime.createThread({ agentId: "front" });
    await t.runtime.postMessage(thread.id, { content: "go" });
    await t.settle(thread.id);
    const list = () => t.persistence.messages.list(thread.id, { includeSilent: true });
    const assistant = (await list()).find((m) => m.toolCalls?.length)!;
    const call = assistant.toolCalls![0]!;
    const scope = { deps: t.runtime.deps, thread, side: "a" as const, signal: new AbortController().signal, stepId: "s", assistantMessage: assistant };

    // Two late writers at once, after the real result: neither adds a message.
    await Promise.all([storeResult(scope, call, toolError("late"), 0), storeResult(scope, call, { status: "success", result: "again" }, 0)]);
    const results = (await list()).filter((m) => m.role === "tool");
    expect(results.map((m) => [m.toolCallId, m.content])).toEqual([[call.id, "echo: once"]]);
    expect(t.events.filter((e) => e.event.type === "tool.completed")).toHaveLength(1);

    // A call without a result yet gets exactly one, however many writers race for it.
    const other = { ...call, id: "call_other" };
    await Promise.all([storeResult(scope, other, { status: "success", result: "first" }, 0), storeResult(scope, other, { status: "success", result: "second" }, 0)]);
    expect((await list()).filter((m) => m.toolCallId === "call_other")).toHaveLength(1);
  });
});
