/**
 * The stable key order the writer uses for new objects and for new keys inserted into existing ones. Identity first
 * (name, type, title...), then behaviour, then the nested structures; unknown keys keep their order after the known
 * ones. Browser-safe.
 */
import type { DefinitionKind } from "@/server/spec";

const SIDE = [
  "label",
  "prompt",
  "stopOnResponse",
  "stopTool",
  "stopToolResponseProperty",
  "maxSteps",
  "sessionStop",
  "sessionFail",
  "sessionStatus",
];
const BINDING = ["name", "messageProperty", "attachmentsProperty"];
const VARIABLE = ["name", "type", "required", "scoped", "description"];
const TOOL_ENTRY = [
  "name",
  "blocking",
  "initUserMessageProperty",
  "initAttachmentsProperty",
  "initAgentNameProperty",
  "immediate",
  "optional",
  "resumable",
  "includeTextResponse",
  "includeToolCalls",
  "includeErrors",
  "env",
  "options",
];
const RESUMABLE = ["receives_messages", "maxInstances", "parentCommunication"];
const IMMEDIATE = ["nameEnv", "descriptionEnv", "scopedEnv"];
const PART = ["type", "content", "prompt", "property"];

const TOP: Partial<Record<DefinitionKind, string[]>> = {
  agents: [
    "name",
    "type",
    "title",
    "description",
    "icon",
    "exposeAsTool",
    "toolDescription",
    "maxSessionTurns",
    "sideA",
    "sideB",
    "variables",
    "env",
    "hooks",
    "packageName",
    "version",
    "author",
    "license",
  ],
  prompts: [
    "name",
    "toolDescription",
    "model",
    "includeChat",
    "includePastTools",
    "parallelToolCalls",
    "toolChoice",
    "reasoning",
    "recentImageThreshold",
    "prompt",
    "requiredSchema",
    "tools",
    "variables",
    "env",
    "providerOptions",
    "hooks",
  ],
  models: [
    "name",
    "provider",
    "model",
    "baseURL",
    "apiKeyEnv",
    "fallbacks",
    "inputPrice",
    "outputPrice",
    "cachedPrice",
    "capabilities",
    "providerOptions",
  ],
};

/** The preferred key order of the object at `path` (dotted, indexes as digits) inside a definition of `kind`. */
export function keyOrderAt(kind: DefinitionKind, path: string): string[] {
  const parts = path === "" ? [] : path.split(".").map((p) => (/^\d+$/.test(p) ? "#" : p));
  const shape = parts.join(".");
  if (shape === "") return TOP[kind] ?? [];
  if (kind === "agents") {
    if (shape === "sideA" || shape === "sideB") return SIDE;
    if (/^side[AB]\.(sessionStop|sessionFail|sessionStatus)$/.test(shape)) return BINDING;
    if (shape === "variables.#") return VARIABLE;
  }
  if (kind === "prompts") {
    if (shape === "tools.#") return TOOL_ENTRY;
    if (shape === "tools.#.resumable") return RESUMABLE;
    if (shape === "tools.#.immediate") return IMMEDIATE;
    if (shape === "prompt.#") return PART;
    if (shape === "variables.#") return VARIABLE;
    if (shape === "reasoning") return ["effort", "maxTokens", "exclude", "include"];
  }
  if (kind === "models" && shape === "capabilities") {
    return ["tools", "streaming", "vision", "reasoning", "json", "maxContextTokens", "maxOutputTokens"];
  }
  return [];
}

/** `keys` sorted by the preferred order; keys the order does not know keep their relative order after the others. */
export function orderKeys(keys: readonly string[], order: readonly string[]): string[] {
  const rank = (k: string) => {
    const i = order.indexOf(k);
    return i === -1 ? order.length : i;
  };
  return keys
    .map((k, i) => ({ k, i }))
    .sort((a, b) => rank(a.k) - rank(b.k) || a.i - b.i)
    .map((x) => x.k);
}
