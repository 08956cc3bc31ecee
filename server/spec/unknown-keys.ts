import { agentDefinitionSchema } from "./agent";
import { effectDefinitionSchema } from "./effect";
import { HOOK_DEFINITION_KEYS } from "./hook";
import { modelDefinitionSchema } from "./model";
import { promptDefinitionSchema } from "./prompt";
import type { DefinitionKind } from "./registry-names";
import { SIDE_CONFIG_KEYS } from "./side-config";
import { TOOL_DEFINITION_KEYS } from "./tool";
import { toolEntryObjectSchema } from "./tool-entry";

const TOP_LEVEL_KEYS: Record<DefinitionKind, readonly string[]> = {
  agents: Object.keys(agentDefinitionSchema.shape),
  prompts: Object.keys(promptDefinitionSchema.shape),
  models: Object.keys(modelDefinitionSchema.shape),
  tools: TOOL_DEFINITION_KEYS,
  hooks: HOOK_DEFINITION_KEYS,
  effects: Object.keys(effectDefinitionSchema.shape),
};
const TOOL_ENTRY_KEYS: readonly string[] = Object.keys(toolEntryObjectSchema.shape);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unknownIn(value: unknown, known: readonly string[], prefix: string): string[] {
  if (!isRecord(value)) return [];
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => (prefix ? `${prefix}.${key}` : key));
}

/**
 * Dotted paths of keys the schemas do not know (they are dropped when parsing): top-level keys, agent sides and
 * prompt tool entries. The registry reports them as warnings, since they are usually misspellings.
 */
export function unknownDefinitionKeys(kind: DefinitionKind, value: unknown): string[] {
  const out = unknownIn(value, TOP_LEVEL_KEYS[kind], "");
  if (!isRecord(value)) return out;
  if (kind === "agents") {
    for (const side of ["sideA", "sideB"]) out.push(...unknownIn(value[side], SIDE_CONFIG_KEYS, side));
  }
  if (kind === "prompts" && Array.isArray(value.tools)) {
    value.tools.forEach((entry, index) => out.push(...unknownIn(entry, TOOL_ENTRY_KEYS, `tools.${index}`)));
  }
  return out;
}
