/**
 * A generated registry of about 500 definitions for the editor benchmark: models with fallbacks, callable tools,
 * prompts that offer tools, subprompts, handoffs and subagents, ai_human and dual_ai agents.
 */
import fs from "node:fs";
import path from "node:path";

export interface FixtureCounts {
  models: number;
  tools: number;
  prompts: number;
  agents: number;
}

export const DEFAULT_COUNTS: FixtureCounts = { models: 8, tools: 220, prompts: 170, agents: 100 };

function write(dir: string, rel: string, text: string) {
  const abs = path.join(dir, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

/** Writes the definitions into `dir` (which must be empty or absent); returns the number of definitions. */
export function writeLargeRegistry(dir: string, counts: FixtureCounts = DEFAULT_COUNTS): number {
  const { models, tools, prompts, agents } = counts;
  for (let i = 0; i < models; i++) {
    const fallbacks = i > 0 ? `, fallbacks: ["m_${i - 1}"]` : "";
    write(dir, `models/m_${i}.ts`, `import { defineModel } from "@studio/spec";\n\nexport default defineModel({ name: "m_${i}", provider: "openai", model: "model-${i}"${fallbacks}, inputPrice: 1, outputPrice: 2 });\n`);
  }
  for (let i = 0; i < tools; i++) {
    write(
      dir,
      `tools/t_${i}.ts`,
      `import { defineTool } from "@studio/spec";\nimport { z } from "zod";\n\nexport default defineTool({\n  description: "Tool number ${i}: does one small thing.",\n  args: z.object({ text: z.string(), count: z.number().optional() }),\n  execute: async (_state, { text }) => text,\n});\n`,
    );
  }
  // Agents: the first half dual_ai (exposed as subagents), the rest ai_human (some exposed as handoff targets).
  const dual = Math.floor(agents / 2);
  const agentPrompt = (a: number, side: "a" | "b") => (a < dual ? (side === "a" ? 2 * a : 2 * a + 1) : dual * 2 + (a - dual)) % prompts;
  for (let a = 0; a < agents; a++) {
    const isDual = a < dual;
    const sideA = `{ label: "A", prompt: "p_${agentPrompt(a, "a")}"${isDual ? `, sessionFail: "t_${(2 * a) % tools}"` : ""} }`;
    const sideB = isDual ? `,\n  sideB: { label: "B", prompt: "p_${agentPrompt(a, "b")}", sessionStop: "t_${(2 * a + 1) % tools}" }` : "";
    const expose = isDual || a % 5 === 0 ? `,\n  exposeAsTool: true,\n  toolDescription: "Agent ${a}."` : "";
    write(
      dir,
      `agents/a_${a}.ts`,
      `import { defineAgent } from "@studio/spec";\n\nexport default defineAgent({\n  name: "a_${a}",\n  type: "${isDual ? "dual_ai" : "ai_human"}",\n  title: "Agent ${a}"${isDual ? ",\n  maxSessionTurns: 4" : ""}${expose},\n  sideA: ${sideA}${sideB},\n});\n`,
    );
  }
  for (let p = 0; p < prompts; p++) {
    const entries = new Set<string>();
    const owner = Math.floor(p / 2);
    // Session tools of a dual_ai agent's sides must be offered by its prompts.
    if (owner < dual) entries.add(`"t_${p % tools}"`);
    for (let k = 1; k <= 3; k++) entries.add(`"t_${(p * 7 + k * 13) % tools}"`);
    if (p % 4 === 0 && p + 1 < prompts) entries.add(`"p_${(p + 1) % prompts}"`);
    if (p % 3 === 0) {
      const child = (p * 5 + 1) % dual;
      if (child !== owner) entries.add(`{ name: "a_${child}", blocking: ${p % 2 === 0}${p % 6 === 0 ? `, resumable: { receives_messages: "side_a", maxInstances: 3 }` : ""} }`);
    }
    if (p % 10 === 5) entries.add(`"a_${dual + ((p * 3) % (agents - dual)) - (((p * 3) % (agents - dual)) % 5)}"`);
    const include = p > 0 && p % 8 === 0 ? `{ type: "include", prompt: "p_0" }, ` : "";
    write(
      dir,
      `prompts/p_${p}.ts`,
      `import { definePrompt } from "@studio/spec";\n\nexport default definePrompt({\n  name: "p_${p}",\n  toolDescription: "Prompt ${p}.",\n  model: "m_${p % models}",\n  prompt: [${include}{ type: "text", content: "You are prompt ${p}." }],\n  tools: [${[...entries].join(", ")}],\n});\n`,
    );
  }
  return models + tools + prompts + agents;
}
