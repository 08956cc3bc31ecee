import type { DiagnosticSink } from "./diagnostics";
import { checkAgent, resolveSide } from "./link-agents";
import { checkIncludeCycles, checkPrompt, promptParts, secretVariables } from "./link-prompts";
import { resolveToolEntries, RUNTIME_TOOL_NAMES } from "./link-tool-entries";
import { didYouMean, listNames, zodObjectFields } from "./schema-fields";
import type { AgentRecord, EffectRecord, HookRecord, ModelRecord, PromptRecord, ToolRecord } from "./types";
import type { ValidatedEntry, ValidatedSet } from "./validate";

export interface LinkedDefinitions {
  agents: Map<string, AgentRecord>;
  prompts: Map<string, PromptRecord>;
  models: Map<string, ModelRecord>;
  tools: Map<string, ToolRecord>;
  hooks: Map<string, HookRecord>;
  effects: Map<string, EffectRecord>;
}

function base<K extends ValidatedEntry["kind"]>(e: ValidatedEntry<K>) {
  return { name: e.name, file: e.file, absPath: e.absPath, definition: e.definition };
}

function checkModel(m: ValidatedEntry<"models">, v: ValidatedSet, sink: DiagnosticSink): void {
  (m.definition.fallbacks ?? []).forEach((fallback, i) => {
    const where = { kind: "models" as const, file: m.file, name: m.name, field: `fallbacks.${i}` };
    if (fallback === m.name) {
      sink.warning({
        ...where,
        message: `Model "${m.name}" lists itself as a fallback; a failed request would be retried on the same model.`,
        fix: `Remove "${m.name}" from fallbacks in ${m.file}; name a model on another endpoint or provider instead.`,
      });
    } else if (!v.models.has(fallback)) {
      sink.error({
        ...where,
        message: `Model "${m.name}" falls back to model "${fallback}", which no model file defines.${didYouMean(fallback, v.models.keys())}`,
        fix: `Correct fallbacks.${i} in ${m.file} (defined models: ${listNames([...v.models.keys()])}) or create models/${fallback}.ts.`,
      });
    }
  });
}

/** A callable tool shares one namespace with prompts and agents offered as tools; a shared name is ambiguous. */
function checkToolNames(t: ValidatedEntry<"tools">, v: ValidatedSet, sink: DiagnosticSink): void {
  const where = { kind: "tools" as const, file: t.file, name: t.name, field: "" };
  const clashes = [v.prompts.get(t.name)?.file, v.agents.get(t.name)?.file].filter((f): f is string => f !== undefined);
  if (clashes.length > 0) {
    sink.error({
      ...where,
      message: `Ambiguous tool name "${t.name}": ${t.file} has the same name as ${clashes.join(" and ")}, so a prompt's tools entry "${t.name}" could mean either.`,
      fix: `Rename ${t.file} (the file name is the tool's name) or rename the ${clashes.length > 1 ? "prompt and agent" : clashes[0]!.startsWith("prompts/") ? "prompt" : "agent"}.`,
    });
  }
  if ((RUNTIME_TOOL_NAMES as readonly string[]).includes(t.name)) {
    sink.error({
      ...where,
      message: `The tool name "${t.name}" is reserved: the runtime adds a lifecycle tool with this name for resumable subagents.`,
      fix: `Rename ${t.file} to another name.`,
    });
  }
}

/**
 * Checks every reference between definitions and builds the linked records. Every problem becomes a diagnostic;
 * definitions with problems are still linked as far as possible so the UI can show them.
 */
export function linkDefinitions(v: ValidatedSet, sink: DiagnosticSink): LinkedDefinitions {
  const secrets = secretVariables(v);
  const models = new Map<string, ModelRecord>();
  for (const m of v.models.values()) {
    checkModel(m, v, sink);
    models.set(m.name, { ...base(m), fallbacks: (m.definition.fallbacks ?? []).filter((f) => f !== m.name && v.models.has(f)) });
  }
  const tools = new Map<string, ToolRecord>();
  for (const t of v.tools.values()) {
    checkToolNames(t, v, sink);
    const argFields = zodObjectFields(t.definition.args);
    tools.set(t.name, { ...base(t), ...(argFields ? { argFields } : {}) });
  }
  checkIncludeCycles(v, sink);
  const prompts = new Map<string, PromptRecord>();
  for (const p of v.prompts.values()) {
    checkPrompt(p, v, secrets, sink);
    const { includes, envs } = promptParts(p);
    const schemaFields = zodObjectFields(p.definition.requiredSchema);
    prompts.set(p.name, {
      ...base(p),
      tools: resolveToolEntries(p, v, sink),
      includes: [...new Set(includes.map(([, t]) => t))],
      envProperties: [...new Set(envs.map(([, e]) => e))],
      ...(schemaFields ? { schemaFields } : {}),
    });
  }
  const agents = new Map<string, AgentRecord>();
  for (const a of v.agents.values()) {
    checkAgent(a, v, sink);
    const sides: AgentRecord["sides"] = { a: resolveSide(a.definition.sideA) };
    if (a.definition.sideB) sides.b = resolveSide(a.definition.sideB);
    agents.set(a.name, { ...base(a), sides });
  }
  const hooks = new Map<string, HookRecord>();
  for (const h of v.hooks.values()) hooks.set(h.name, base(h));
  const effects = new Map<string, EffectRecord>();
  for (const e of v.effects.values()) effects.set(e.name, base(e));
  return { agents, prompts, models, tools, hooks, effects };
}
