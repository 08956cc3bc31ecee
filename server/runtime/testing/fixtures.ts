import { z } from "zod";
import type { DefinitionObjects } from "./snapshot-from-objects";

/** Small definition sets used by the engine's unit tests. */
export const model = { name: "m", provider: "openai", model: "test-model" };

export const echoTool = {
  name: "echo",
  description: "Echo the text back",
  args: z.object({ text: z.string() }),
  execute: async (_state: unknown, args: { text: string }) => `echo: ${args.text}`,
};

export const failingTool = {
  name: "explode",
  description: "Always throws",
  execute: async () => {
    throw new Error("boom");
  },
};

export const simpleTool = (name: string, result = `${name} done`) => ({
  name,
  description: `The ${name} tool`,
  args: z.object({ note: z.string().optional(), reason: z.string().optional(), summary: z.string().optional(), status: z.string().optional() }),
  execute: async () => result,
});

export function chatDefinitions(extra: Partial<{ promptFields: Record<string, unknown>; sideA: Record<string, unknown> }> = {}): DefinitionObjects {
  return {
    models: [model],
    tools: [echoTool, failingTool, simpleTool("finish")],
    prompts: [
      { name: "chat_prompt", prompt: "You are helpful.", model: "m", includeChat: true, tools: ["echo", "explode", "finish"], ...extra.promptFields },
    ],
    agents: [{ name: "chat", type: "ai_human", sideA: { prompt: "chat_prompt", ...extra.sideA } }],
  };
}

export function duoDefinitions(opts: { maxSessionTurns?: number; sideA?: Record<string, unknown>; sideB?: Record<string, unknown> } = {}): DefinitionObjects {
  return {
    models: [model],
    tools: [echoTool, simpleTool("approve"), simpleTool("give_up")],
    prompts: [
      { name: "worker", prompt: "You write drafts.", model: "m", includeChat: true, tools: ["echo", "give_up"] },
      { name: "reviewer", prompt: "You review drafts.", model: "m", includeChat: true, tools: ["approve"] },
    ],
    agents: [
      {
        name: "duo",
        type: "dual_ai",
        maxSessionTurns: opts.maxSessionTurns ?? 3,
        sideA: { prompt: "worker", label: "Worker", sessionFail: { name: "give_up", messageProperty: "reason" }, ...opts.sideA },
        sideB: { prompt: "reviewer", label: "Reviewer", sessionStop: { name: "approve", messageProperty: "summary" }, ...opts.sideB },
      },
    ],
  };
}
