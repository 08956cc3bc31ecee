import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_RULE_CONTENT, startFakeLlm, type FakeLlm, type Rule } from "./server";

let fake: FakeLlm;
let client: OpenAI;

beforeAll(async () => {
  fake = await startFakeLlm();
  client = new OpenAI({ baseURL: fake.url, apiKey: "test", maxRetries: 0 });
});
afterAll(() => fake.close());

const tool = (name: string): ChatCompletionTool => ({
  type: "function",
  function: { name, description: name, parameters: { type: "object", properties: {} } },
});

async function ask(
  messages: ChatCompletionMessageParam[],
  extra: { model?: string; tools?: ChatCompletionTool[] } = {},
): Promise<string | null> {
  const completion = await client.chat.completions.create({
    model: extra.model ?? "m",
    messages,
    ...(extra.tools ? { tools: extra.tools } : {}),
  });
  return completion.choices[0]?.message.content ?? null;
}

/** A one-rule script: the rule answers "yes" when its condition holds, otherwise the no-match text comes back. */
function only(when: Rule["when"]): void {
  fake.setScript([{ when, respond: { content: "yes" } }]);
}

describe("when conditions", () => {
  it("model: equals the request's model", async () => {
    only({ model: "gpt-a" });
    expect(await ask([{ role: "user", content: "x" }], { model: "gpt-a" })).toBe("yes");
    expect(await ask([{ role: "user", content: "x" }], { model: "gpt-a-mini" })).toBe(NO_RULE_CONTENT);
  });

  it("system_contains: substring of the joined system messages", async () => {
    only({ system_contains: "You are a reviewer" });
    const reviewer: ChatCompletionMessageParam[] = [
      { role: "system", content: "Be brief." },
      { role: "system", content: "You are a reviewer of essays." },
      { role: "user", content: "hello" },
    ];
    expect(await ask(reviewer)).toBe("yes");
    expect(await ask([{ role: "user", content: "You are a reviewer" }])).toBe(NO_RULE_CONTENT);
  });

  it("last_role: role of the last message", async () => {
    only({ last_role: "tool" });
    const afterTool: ChatCompletionMessageParam[] = [
      { role: "user", content: "look it up" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "found it" },
    ];
    expect(await ask(afterTool)).toBe("yes");
    expect(await ask([{ role: "user", content: "x" }])).toBe(NO_RULE_CONTENT);
  });

  it("last_contains: substring of the last message's text, including text content parts", async () => {
    only({ last_contains: "weather in Paris" });
    expect(await ask([{ role: "user", content: [{ type: "text", text: "What is the weather in Paris?" }] }])).toBe(
      "yes",
    );
    const older: ChatCompletionMessageParam[] = [
      { role: "user", content: "weather in Paris" },
      { role: "assistant", content: "Sunny." },
      { role: "user", content: "thanks" },
    ];
    expect(await ask(older)).toBe(NO_RULE_CONTENT);
  });

  it("any_contains: substring of any message, tool messages included", async () => {
    only({ any_contains: "SECRET-RESULT" });
    const withTool: ChatCompletionMessageParam[] = [
      { role: "user", content: "run it" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "run", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "the SECRET-RESULT is 7" },
      { role: "user", content: "and?" },
    ];
    expect(await ask(withTool)).toBe("yes");
    expect(await ask([{ role: "user", content: "nothing here" }])).toBe(NO_RULE_CONTENT);
  });

  it("has_tool / lacks_tool: a tool name present in / absent from tools", async () => {
    fake.setScript([
      { when: { has_tool: "subagent_message" }, respond: { content: "has" } },
      { when: { lacks_tool: ["subagent_create", "search"] }, respond: { content: "lacks" } },
    ]);
    expect(await ask([{ role: "user", content: "x" }], { tools: [tool("subagent_message")] })).toBe("has");
    expect(await ask([{ role: "user", content: "x" }], { tools: [tool("other")] })).toBe("lacks");
    expect(await ask([{ role: "user", content: "x" }])).toBe("lacks");
    expect(await ask([{ role: "user", content: "x" }], { tools: [tool("search")] })).toBe(NO_RULE_CONTENT);
  });

  it("all given conditions must hold together", async () => {
    only({ model: "gpt-a", last_contains: "go" });
    expect(await ask([{ role: "user", content: "go" }], { model: "gpt-b" })).toBe(NO_RULE_CONTENT);
    expect(await ask([{ role: "user", content: "stop" }], { model: "gpt-a" })).toBe(NO_RULE_CONTENT);
    expect(await ask([{ role: "user", content: "go" }], { model: "gpt-a" })).toBe("yes");
  });
});

describe("rule order and times", () => {
  it("the first matching rule answers", async () => {
    fake.setScript([
      { when: { last_contains: "hello" }, respond: { content: "first" } },
      { when: { last_contains: "hello" }, respond: { content: "second" } },
      { respond: { content: "fallback" } },
    ]);
    expect(await ask([{ role: "user", content: "hello" }])).toBe("first");
    expect(await ask([{ role: "user", content: "bye" }])).toBe("fallback");
  });

  it("a rule with times answers that many requests, then later rules take over", async () => {
    fake.setScript([{ times: 2, respond: { content: "limited" } }, { respond: { content: "after" } }]);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ask([{ role: "user", content: "x" }]));
    expect(answers).toEqual(["limited", "limited", "after", "after"]);
  });

  it("replacing the script resets the hit counters", async () => {
    const script: Rule[] = [{ times: 1, respond: { content: "once" } }];
    fake.setScript(script);
    expect(await ask([{ role: "user", content: "x" }])).toBe("once");
    expect(await ask([{ role: "user", content: "x" }])).toBe(NO_RULE_CONTENT);
    fake.setScript(script);
    expect(await ask([{ role: "user", content: "x" }])).toBe("once");
  });

  it("logs the index of the answering rule", async () => {
    fake.clearRequests();
    fake.setScript([
      { when: { last_contains: "a" }, respond: { content: "A" } },
      { when: { last_contains: "b" }, respond: { content: "B" } },
    ]);
    await ask([{ role: "user", content: "b" }]);
    await ask([{ role: "user", content: "a" }]);
    await ask([{ role: "user", content: "c" }]);
    expect(fake.getRequests().map((r) => r.matched)).toEqual([1, 0, null]);
  });
});
