/** The short reference `studio scaffold` writes as `AGENTS.md` in each folder of AGENTS_DIR. */
export const SCAFFOLD_DOCS: Record<string, string> = {
  agents: `# agents/

One file per agent. The default export is \`defineAgent({...})\`; the registry name is \`name\`.

\`\`\`ts
import { defineAgent } from "@studio/spec";
export default defineAgent({
  name: "support",                 // snake_case, unique
  type: "ai_human",                // or "dual_ai" (then sideB is required)
  description: "Answers questions about orders.",
  sideA: { prompt: "support", maxSteps: 10 },
});
\`\`\`

Packaging fields (\`packageName\`, \`version\`, \`author\`, \`license\`) are read by \`studio pack\`.
`,
  prompts: `# prompts/

One file per prompt: \`definePrompt({ name, model, prompt, tools?, toolDescription?, requiredSchema?, hooks? })\`.
\`prompt\` is a string or a list of parts (\`{type: "text"}\`, \`{type: "include", prompt}\`, \`{type: "env", property}\`).
\`tools\` names tools, prompts (subprompts, handoffs) and agents (subagents); \`model\` names a file in models/.
\`providerTools: ["web_search", "code_execution"]\` lets the model's provider run its own tools (not on \`openai\`).
`,
  models: `# models/

One file per model: \`defineModel({ name, provider: "openai", model: "gpt-4.1-mini", baseURL?, apiKeyEnv?, fallbacks? })\`.
\`provider\` is \`openai\` (any OpenAI-compatible Chat Completions endpoint), \`openai-responses\` (OpenAI's Responses
API), \`anthropic\`, \`google\` (Gemini), or a provider of your own in providers/. The key is read from \`apiKeyEnv\`, else
the provider's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY). \`capabilities: { vision: false }\` keeps
images from the model; \`capabilities: { tools: false }\` makes a prompt with tools a diagnostic.
Never write a key into this file.
`,
  tools: `# tools/

One file per tool; the file name is the tool's name (\`word_count.ts\` → \`word_count\`).

\`\`\`ts
import { z } from "zod";
import { defineTool } from "@studio/spec";
export default defineTool({
  description: "Counts the words of a text.",
  args: z.object({ text: z.string() }),
  execute: async (_state, { text }) => ({ status: "success", result: String(text.split(/\\s+/).length) }),
});
\`\`\`

Import only \`zod\`, \`@studio/spec\` and files inside this folder, so the tool can be packed.
`,
  hooks: `# hooks/

One file per hook: \`defineHook({ id, hook: "filter_messages", execute: async (state, ...args) => ... })\`. Agents and
prompts list hook ids in \`hooks\`. A hook returns the value it was given (changed or not).
`,
  effects: `# effects/

One file per effect: \`defineEffect({ name, description, args?: z.object(...), execute: async (state, args) => {...} })\`.
Tools schedule effects by name with \`state.scheduleEffect(name, args, delayMs)\`; an effect runs later, durably.
`,
  evals: `# evals/

One file per eval: \`defineEval({ name, agent, cases, scorers, env?, thresholds? })\`. \`cases\` is a list
(\`{ id?, input | messages, variables?, expected?, metadata? }\`) or a \`.jsonl\` / \`.csv\` file next to the eval.

\`\`\`ts
import { defineEval, scorers } from "@studio/spec";
export default defineEval({
  name: "support_basics",
  agent: "support",
  cases: "./support_basics.jsonl",
  scorers: [scorers.contains(), scorers.toolCalled("lookup_order"), scorers.maxSteps(8)],
  thresholds: { passRate: 0.9 },
});
\`\`\`

Run it with \`npx studio eval support_basics\` (exit 1 when a threshold is missed) or from the Evals page.
`,
  api: `# api/

Thread endpoints, mounted at \`/api/threads/:threadId/<path>\`: \`api/status.ts\` → GET \`…/status\`,
\`api/items/[itemId].post.ts\` → POST \`…/items/:itemId\`. The default export is \`defineThreadEndpoint(async (state, request) => Response)\`.
`,
  controllers: `# controllers/

Controllers, mounted at \`/api/controllers/<path>\` with the same file-route convention as api/. The default export is
\`defineController(async ({ request, params }) => Response | object)\`.
`,
};

/** The top-level reference written as `AGENTS_DIR/AGENTS.md`. */
export const SCAFFOLD_INDEX = `# Agent definitions

Each folder holds one kind of definition (see its AGENTS.md). Check them with \`npx studio validate\`; generate name
types with \`npx studio types\`; share an agent with \`npx studio pack <agent>\` and \`npx studio publish <agent>\`.
Installed packages (node_modules with \`standardagent.entryAgents\`, or agents/packed/<pkg>) are named \`packageId/name\`.
`;
