import type { ParsedAgentDefinition, ParsedPromptDefinition } from "@/server/spec";
import { DefinitionError } from "../errors";
import type { Definitions } from "../definitions";
import { resolveEnvValue, type EnvSources } from "../env/env-resolver";
import { secretValues } from "../env/redact";
import type { SecretBox } from "../env/secret-box";
import type { McpClientPort, Persistence, Side, ThreadRecord } from "../ports";

/** What one step of one side works with: the active agent, the side's config and prompt, and env lookup. */
export interface StepContext {
  defs: Definitions;
  agent: ParsedAgentDefinition;
  side: Side;
  sideConfig: ParsedAgentDefinition["sideA"];
  prompt: ParsedPromptDefinition;
  env: EnvSources;
  lookupEnv(name: string, toolConfigEnv?: Record<string, string>): Promise<{ value: string; secret: boolean } | undefined>;
  /** Plain values of the secrets visible to the thread: redacted from tool results, events and logs. */
  secrets: string[];
  /** The MCP client, when the composition root gave one. */
  mcp?: McpClientPort;
}

/**
 * What loading a step context reads: a `RuntimeDeps` has it. (Named here rather than imported: `RuntimeDeps` refers to
 * `StepContext` through `StateScope`, and the two files would import each other.)
 */
export interface StepContextSources {
  definitions(): Definitions;
  persistence: Pick<Persistence, "env">;
  secrets: SecretBox | null;
  mcp?: McpClientPort;
}

export async function loadStepContext(deps: StepContextSources, thread: ThreadRecord, side: Side): Promise<StepContext> {
  const defs = deps.definitions();
  const agent = defs.agent(thread.agentId);
  if (!agent) throw new DefinitionError(`Agent "${thread.agentId}" is not defined (agents/agents/${thread.agentId}.ts), or its file has errors`);
  const sideConfig = side === "a" ? agent.sideA : agent.sideB;
  if (!sideConfig) throw new DefinitionError(`Agent "${agent.name}" has no side B; a dual_ai agent needs sideB`);
  const prompt = defs.prompt(sideConfig.prompt);
  if (!prompt) throw new DefinitionError(`Prompt "${sideConfig.prompt}" of agent "${agent.name}" is not defined, or its file has errors`);
  const { thread: threadEnv, user: userEnv, instance: instanceEnv } = await deps.persistence.env.visible(thread.id, thread.userId);
  const env: EnvSources = { thread: threadEnv, user: userEnv, instance: instanceEnv, agent, prompt: { env: promptEnvWithIncludes(defs, prompt.name) } };
  return {
    defs,
    agent,
    side,
    sideConfig,
    prompt,
    env,
    secrets: secretValues([...threadEnv, ...userEnv, ...instanceEnv], deps.secrets),
    ...(deps.mcp ? { mcp: deps.mcp } : {}),
    async lookupEnv(name, toolConfigEnv) {
      const v = resolveEnvValue(name, { ...env, toolConfig: toolConfigEnv }, deps.secrets);
      return v ? { value: v.value, secret: v.secret } : undefined;
    },
  };
}

/**
 * The prompt layer of env resolution: the prompt's own `env` over the `env` of the prompts it includes (recursively),
 * so a shared included prompt can give defaults to the variables it inserts.
 */
export function promptEnvWithIncludes(defs: Definitions, promptName: string, seen = new Set<string>()): Record<string, string> {
  if (seen.has(promptName)) return {};
  seen.add(promptName);
  const prompt = defs.prompt(promptName);
  if (!prompt) return {};
  let merged: Record<string, string> = {};
  if (Array.isArray(prompt.prompt)) {
    for (const part of prompt.prompt) if (part.type === "include") merged = { ...merged, ...promptEnvWithIncludes(defs, part.prompt, seen) };
  }
  return { ...merged, ...(prompt.env ?? {}) };
}
