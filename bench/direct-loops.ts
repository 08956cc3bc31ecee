/**
 * The baselines: (a) a minimal tool loop hand-written on the `openai` SDK, no persistence; (b) the same loop with
 * `@openai/agents` on its Chat Completions model, tracing off. Both stream, as our runtime does on every call.
 */
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { z } from "zod";

export const MODEL = "bench-model";

/** `fetch`: the SDK's transport (its default, the global fetch, when absent). */
export function sdkClient(baseURL: string, fetch?: typeof globalThis.fetch): OpenAI {
  return new OpenAI({ baseURL, apiKey: "bench", maxRetries: 3, ...(fetch ? { fetch } : {}) });
}

const echoTool: ChatCompletionTool = {
  type: "function",
  function: {
    name: "echo",
    description: "Echo the text back",
    parameters: { type: "object", properties: { text: { type: "string", description: "Text to echo" } }, required: ["text"] },
  },
};
const finishTool: ChatCompletionTool = {
  type: "function",
  function: {
    name: "finish_work",
    description: "Finish the work and report the result",
    parameters: { type: "object", properties: { result: { type: "string" } }, required: ["result"] },
  },
};

export interface LoopStats {
  steps: number;
  /** Time spent in the LLM calls (request sent → last chunk), ms. */
  llmMs: number;
  result: string;
}

/**
 * (a) The hand-written loop: stream a completion, assemble tool calls, run them (`echo`; `finish_work` ends the
 * loop like a session stop), append the results, repeat until the model answers text.
 */
export async function openaiLoop(client: OpenAI, system: string, user: string): Promise<LoopStats> {
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
  let steps = 0;
  let llmMs = 0;
  for (;;) {
    steps++;
    const t0 = performance.now();
    const stream = await client.chat.completions.create({ model: MODEL, messages, tools: [echoTool, finishTool], stream: true, stream_options: { include_usage: true } });
    let content = "";
    const calls: { id: string; name: string; args: string }[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) content += delta.content;
      for (const tc of delta.tool_calls ?? []) {
        const c = (calls[tc.index] ??= { id: "", name: "", args: "" });
        if (tc.id) c.id = tc.id;
        if (tc.function?.name) c.name += tc.function.name;
        if (tc.function?.arguments) c.args += tc.function.arguments;
      }
    }
    llmMs += performance.now() - t0;
    if (calls.length === 0) return { steps, llmMs, result: content };
    messages.push({
      role: "assistant",
      content: content || null,
      tool_calls: calls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.args } })),
    });
    let finished: string | null = null;
    for (const c of calls) {
      const args = JSON.parse(c.args || "{}") as { text?: string; result?: string };
      const out = c.name === "echo" ? `echo: ${args.text}` : "finished";
      if (c.name === "finish_work") finished = args.result ?? "";
      messages.push({ role: "tool", tool_call_id: c.id, content: out });
    }
    if (finished !== null) return { steps, llmMs, result: finished };
  }
}

let agentsConfigured = false;

/** (b) The same loop with `@openai/agents`: an Agent with an `echo` function tool, run streamed until its final text. */
export async function agentsSdkLoop(client: OpenAI, system: string, user: string): Promise<LoopStats> {
  if (!agentsConfigured) {
    setTracingDisabled(true);
    agentsConfigured = true;
  }
  let steps = 0;
  const echo = tool({
    name: "echo",
    description: "Echo the text back",
    parameters: z.object({ text: z.string().describe("Text to echo") }),
    execute: async ({ text }) => `echo: ${text}`,
  });
  const agent = new Agent({ name: "looper", instructions: system, model: new OpenAIChatCompletionsModel(client, MODEL), tools: [echo] });
  const result = await run(agent, user, { stream: true, maxTurns: 1000 });
  for await (const ev of result) {
    if (ev.type === "raw_model_stream_event" && ev.data.type === "response_started") steps++;
  }
  await result.completed;
  return { steps, llmMs: NaN, result: String(result.finalOutput ?? "") };
}
