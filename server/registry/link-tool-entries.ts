import {
  fieldsNotAllowedFor,
  normalizeToolEntry,
  SUBAGENT_ONLY_FIELDS,
  toolEntryName,
  type ToolEntry,
  type ToolEntryKind,
  type ToolEntryObject,
} from "@/server/spec";
import type { DiagnosticSink } from "./diagnostics";
import { resolveMcpEntry } from "./link-mcp-entry";
import { didYouMean, listNames, zodObjectFields } from "./schema-fields";
import type { ResolvedToolEntry, SubagentEntryConfig } from "./types";
import type { ValidatedEntry, ValidatedSet } from "./validate";

/** Tool names the runtime adds itself for resumable subagent entries. */
export const RUNTIME_TOOL_NAMES = ["subagent_create", "subagent_message"] as const;

const KIND_LABEL: Record<ToolEntryKind, string> = {
  tool: "a callable tool",
  subprompt: "a subprompt",
  handoff: "a handoff (ai_human agent)",
  subagent: "a subagent (dual_ai agent)",
};

/** The fields of the schema an entry's arguments are read from: the subprompt's or the child side A prompt's. */
function targetSchemaFields(kind: ToolEntryKind, name: string, v: ValidatedSet): { fields: string[]; where: string } | undefined {
  if (kind === "subprompt") {
    const p = v.prompts.get(name);
    const fields = zodObjectFields(p?.definition.requiredSchema);
    return p && fields ? { fields, where: `the requiredSchema of prompt "${name}" (${p.file})` } : undefined;
  }
  if (kind === "subagent") {
    const a = v.agents.get(name);
    const p = a ? v.prompts.get(a.definition.sideA.prompt) : undefined;
    const fields = zodObjectFields(p?.definition.requiredSchema);
    return p && fields
      ? { fields, where: `the requiredSchema of "${p.name}", side A prompt of agent "${name}" (${p.file})` }
      : undefined;
  }
  return undefined;
}

function subagentConfig(obj: ToolEntryObject): SubagentEntryConfig {
  const config: SubagentEntryConfig = {
    blocking: obj.blocking ?? true,
    immediate: obj.immediate ?? false,
    resumable: obj.resumable
      ? {
          receives_messages: obj.resumable.receives_messages,
          parentCommunication: obj.resumable.parentCommunication ?? "implicit",
          ...(obj.resumable.maxInstances !== undefined ? { maxInstances: obj.resumable.maxInstances } : {}),
        }
      : false,
  };
  if (obj.initUserMessageProperty !== undefined) config.initUserMessageProperty = obj.initUserMessageProperty;
  if (obj.initAttachmentsProperty !== undefined) config.initAttachmentsProperty = obj.initAttachmentsProperty;
  if (obj.initAgentNameProperty !== undefined) config.initAgentNameProperty = obj.initAgentNameProperty;
  if (obj.optional !== undefined) config.optional = obj.optional;
  return config;
}

function build(kind: ToolEntryKind, name: string, index: number, obj: ToolEntryObject): ResolvedToolEntry {
  switch (kind) {
    case "tool": {
      const env: Record<string, string> = {};
      for (const [k, val] of Object.entries(obj.tenvs ?? {})) if (typeof val === "string") env[k] = val;
      Object.assign(env, obj.env ?? {});
      return { kind, name, index, config: { env, options: obj.options ?? {} } };
    }
    case "subprompt": {
      const config = {
        includeTextResponse: obj.includeTextResponse ?? true,
        includeToolCalls: obj.includeToolCalls ?? true,
        includeErrors: obj.includeErrors ?? true,
        ...(obj.initUserMessageProperty !== undefined ? { initUserMessageProperty: obj.initUserMessageProperty } : {}),
        ...(obj.initAttachmentsProperty !== undefined ? { initAttachmentsProperty: obj.initAttachmentsProperty } : {}),
      };
      return { kind, name, index, config };
    }
    case "handoff":
      return { kind, name, index };
    case "subagent":
      return { kind, name, index, config: subagentConfig(obj) };
  }
}

/**
 * Resolves each entry of a prompt's `tools` to a callable tool, subprompt, handoff or subagent, reporting unknown and
 * ambiguous names, agents not exposed as tools, fields that do not fit the entry's kind and argument mappings that
 * name fields absent from the target's schema. Entries that do not resolve are left out of the result.
 */
export function resolveToolEntries(prompt: ValidatedEntry<"prompts">, v: ValidatedSet, sink: DiagnosticSink): ResolvedToolEntry[] {
  const out: ResolvedToolEntry[] = [];
  const seen = new Map<string, number>();
  const base = { kind: "prompts" as const, file: prompt.file, name: prompt.name };
  prompt.definition.tools.forEach((entry: ToolEntry, index) => {
    const name = toolEntryName(entry);
    const obj = normalizeToolEntry(entry);
    const field = typeof entry === "string" ? `tools.${index}` : `tools.${index}.name`;
    const first = seen.get(name);
    if (first !== undefined) {
      sink.error({
        ...base,
        field,
        message: `Prompt "${prompt.name}" lists "${name}" twice (tools.${first} and tools.${index}); a model cannot be offered two tools with one name.`,
        fix: `Remove tools.${index} from ${prompt.file}, merging its options into tools.${first}.`,
      });
      return;
    }
    seen.set(name, index);
    const mcp = resolveMcpEntry(name, index, prompt, field, v, sink);
    if (mcp !== undefined) {
      if (mcp) out.push(mcp);
      return;
    }
    const kind = classify(name, prompt, field, v, sink);
    if (kind === undefined) return;
    checkFields(entry, kind, name, prompt, index, sink);
    checkMappings(obj, kind, name, prompt, index, v, sink);
    if (kind === "subprompt" && v.prompts.get(name)?.definition.toolDescription.trim() === "") {
      sink.warning({
        ...base,
        field,
        message: `Prompt "${prompt.name}" offers prompt "${name}" as a tool, but "${name}" has no toolDescription, so the model is not told what it does.`,
        fix: `Add \`toolDescription: '<what it does, for the model>'\` to ${v.prompts.get(name)?.file}.`,
      });
    }
    out.push(build(kind, name, index, obj));
  });
  return out;
}

function classify(
  name: string,
  prompt: ValidatedEntry<"prompts">,
  field: string,
  v: ValidatedSet,
  sink: DiagnosticSink,
): ToolEntryKind | undefined {
  const base = { kind: "prompts" as const, file: prompt.file, name: prompt.name, field };
  const tool = v.tools.get(name);
  const sub = v.prompts.get(name);
  const agent = v.agents.get(name);
  const callableAgent = agent?.definition.exposeAsTool ? agent : undefined;
  if (tool && (sub || agent)) {
    const others = [sub ? `prompt ${sub.file}` : "", agent ? `agent ${agent.file}` : ""].filter(Boolean).join(" and ");
    sink.error({
      ...base,
      message: `Ambiguous tool name "${name}" in prompt "${prompt.name}": it is both the callable tool ${tool.file} and the ${others}.`,
      fix: `Rename one of them so that every tool, prompt and agent offered as a tool has its own name.`,
    });
    return undefined;
  }
  if (sub && callableAgent) {
    sink.error({
      ...base,
      message: `Ambiguous tool name "${name}" in prompt "${prompt.name}": it is both prompt ${sub.file} (a subprompt) and agent ${callableAgent.file} (exposed as a tool).`,
      fix: `Rename the prompt or the agent so that the entry names exactly one of them.`,
    });
    return undefined;
  }
  if (tool) return "tool";
  if (sub) return "subprompt";
  if (agent) {
    const isDual = agent.definition.type === "dual_ai";
    if (!agent.definition.exposeAsTool) {
      sink.error({
        ...base,
        message: `Prompt "${prompt.name}" offers agent "${name}" as a tool, but the agent is not exposed as a tool (exposeAsTool is not true).`,
        fix: `Set \`exposeAsTool: true\` and a \`toolDescription\` in ${agent.file}${isDual ? "" : " (an ai_human agent becomes a handoff; make it `type: 'dual_ai'` with a sideB to use it as a subagent)"}, or remove the entry.`,
      });
      return undefined;
    }
    return isDual ? "subagent" : "handoff";
  }
  const runtime = (RUNTIME_TOOL_NAMES as readonly string[]).includes(name);
  const known = [...v.tools.keys(), ...v.prompts.keys(), ...[...v.agents.values()].filter((a) => a.definition.exposeAsTool).map((a) => a.name)];
  sink.error({
    ...base,
    message: runtime
      ? `Prompt "${prompt.name}" lists "${name}", a lifecycle tool the runtime adds by itself for resumable subagent entries.`
      : `Prompt "${prompt.name}" offers "${name}", which is not a tool, prompt or agent.${didYouMean(name, known)}`,
    fix: runtime
      ? `Remove "${name}" from tools in ${prompt.file}; give the subagent entry \`resumable: { receives_messages: 'side_a' }\` instead.`
      : `Correct the name in ${prompt.file}, or create tools/${name}.ts with \`export default defineTool({ description, args, execute })\`. Known: ${listNames(known)}.`,
  });
  return undefined;
}

function checkFields(entry: ToolEntry, kind: ToolEntryKind, name: string, prompt: ValidatedEntry<"prompts">, index: number, sink: DiagnosticSink): void {
  const misplaced = fieldsNotAllowedFor(entry, kind);
  for (const f of misplaced) {
    const subagentOnly = (SUBAGENT_ONLY_FIELDS as readonly string[]).includes(f);
    const diagnostic = {
      kind: "prompts" as const,
      file: prompt.file,
      name: prompt.name,
      field: `tools.${index}.${f}`,
      message: subagentOnly
        ? `\`${f}\` is a subagent-only field, but "${name}" is ${KIND_LABEL[kind]}, not a dual_ai agent exposed as a tool.`
        : `\`${f}\` has no effect on "${name}", which is ${KIND_LABEL[kind]}; it is ignored.`,
      fix: subagentOnly
        ? `Remove \`${f}\` from tools.${index} in ${prompt.file}${kind === "handoff" ? `, or make agent "${name}" \`type: 'dual_ai'\` with a sideB to run it as a subagent` : ""}.`
        : `Remove \`${f}\` from tools.${index} in ${prompt.file}.`,
    };
    if (subagentOnly) sink.error(diagnostic);
    else sink.warning(diagnostic);
  }
}

function checkMappings(
  obj: ToolEntryObject,
  kind: ToolEntryKind,
  name: string,
  prompt: ValidatedEntry<"prompts">,
  index: number,
  v: ValidatedSet,
  sink: DiagnosticSink,
): void {
  if (kind !== "subprompt" && kind !== "subagent") return;
  const target = targetSchemaFields(kind, name, v);
  if (!target) return;
  const mappings: Array<"initUserMessageProperty" | "initAttachmentsProperty" | "initAgentNameProperty"> = [
    "initUserMessageProperty",
    "initAttachmentsProperty",
    ...(kind === "subagent" ? (["initAgentNameProperty"] as const) : []),
  ];
  for (const m of mappings) {
    const value = obj[m];
    if (value === undefined || target.fields.includes(value)) continue;
    sink.warning({
      kind: "prompts",
      file: prompt.file,
      name: prompt.name,
      field: `tools.${index}.${m}`,
      message: `${m} "${value}" is not a field of ${target.where}, whose fields are ${listNames(target.fields)}.${didYouMean(value, target.fields)}`,
      fix: `Use one of ${listNames(target.fields)} for ${m}, or add \`${value}\` to that requiredSchema.`,
    });
  }
}
