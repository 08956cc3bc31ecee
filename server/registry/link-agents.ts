import { normalizeSessionBinding, SIDE_CONFIG_ALIASES, toolEntryName, type ParsedSideConfig } from "@/server/spec";
import type { DiagnosticSink } from "./diagnostics";
import { checkHookIds } from "./link-prompts";
import { didYouMean, listNames, zodObjectFields } from "./schema-fields";
import type { ResolvedSide } from "./types";
import type { ValidatedEntry, ValidatedSet } from "./validate";

const SESSION_FIELDS = ["sessionStop", "sessionFail", "sessionStatus"] as const;
type SideKey = "sideA" | "sideB";

/** A side with its session bindings in object form (deprecated aliases already folded in by the schema). */
export function resolveSide(side: ParsedSideConfig): ResolvedSide {
  const out: ResolvedSide = { prompt: side.prompt, stopOnResponse: side.stopOnResponse };
  if (side.label !== undefined) out.label = side.label;
  if (side.stopTool !== undefined) out.stopTool = side.stopTool;
  if (side.stopToolResponseProperty !== undefined) out.stopToolResponseProperty = side.stopToolResponseProperty;
  if (side.maxSteps !== undefined) out.maxSteps = side.maxSteps;
  for (const f of SESSION_FIELDS) {
    const b = normalizeSessionBinding(side[f]);
    if (b) out[f] = b;
  }
  return out;
}

/** The fields a tool's arguments have: callable `args`, a subprompt's or a subagent's side A `requiredSchema`. */
function argumentFields(name: string, v: ValidatedSet): { fields: string[]; where: string } | undefined {
  const tool = v.tools.get(name);
  if (tool) return { fields: zodObjectFields(tool.definition.args) ?? [], where: `the args of tool "${name}" (${tool.file})` };
  const prompt = v.prompts.get(name);
  const fields = zodObjectFields(prompt?.definition.requiredSchema);
  if (prompt && fields) return { fields, where: `the requiredSchema of prompt "${name}" (${prompt.file})` };
  return undefined;
}

/** The field path of a binding as written: the deprecated alias when one was used, `.name` for the object form. */
function bindingPath(raw: unknown, sideKey: SideKey, target: (typeof SESSION_FIELDS)[number]): { path: string; objectForm: boolean } {
  const side = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const aliases = Object.entries(SIDE_CONFIG_ALIASES).filter(([, t]) => t === target).map(([a]) => a);
  const field = [target, ...aliases].find((f) => side[f] !== undefined) ?? target;
  const objectForm = typeof side[field] === "object" && side[field] !== null;
  return { path: `${sideKey}.${field}`, objectForm };
}

function checkSide(agent: ValidatedEntry<"agents">, sideKey: SideKey, side: ParsedSideConfig, v: ValidatedSet, sink: DiagnosticSink): void {
  const base = { kind: "agents" as const, file: agent.file, name: agent.name };
  const prompt = v.prompts.get(side.prompt);
  if (!prompt) {
    sink.error({
      ...base,
      field: `${sideKey}.prompt`,
      message: `Agent "${agent.name}" ${sideKey} uses prompt "${side.prompt}", which no prompt file defines.${didYouMean(side.prompt, v.prompts.keys())}`,
      fix: `Correct ${sideKey}.prompt in ${agent.file} (defined prompts: ${listNames([...v.prompts.keys()])}) or create prompts/${side.prompt}.ts.`,
    });
    return;
  }
  const offered = prompt.definition.tools.map(toolEntryName);
  const rawSide = agent.raw[sideKey];
  const requireOffered = (toolName: string, fieldPath: string, what: string) => {
    if (offered.includes(toolName)) return true;
    sink.error({
      ...base,
      field: fieldPath,
      message: `Agent "${agent.name}" ${what} is tool "${toolName}", but ${sideKey}'s prompt "${prompt.name}" does not offer it, so the model can never call it.${didYouMean(toolName, offered)}`,
      fix: `Add '${toolName}' to \`tools\` in ${prompt.file}, or bind a tool that prompt offers (${listNames(offered)}).`,
    });
    return false;
  };
  const checkProperty = (toolName: string, property: string | undefined, fieldPath: string) => {
    if (property === undefined) return;
    const target = argumentFields(toolName, v);
    if (!target || target.fields.includes(property)) return;
    sink.warning({
      ...base,
      field: fieldPath,
      message: `${fieldPath} "${property}" is not a field of ${target.where}, whose fields are ${listNames(target.fields)}.${didYouMean(property, target.fields)}`,
      fix: `Name one of ${listNames(target.fields)} in ${agent.file}, or add \`${property}\` to the schema of "${toolName}".`,
    });
  };
  for (const f of SESSION_FIELDS) {
    const binding = normalizeSessionBinding(side[f]);
    if (!binding) continue;
    const { path, objectForm } = bindingPath(rawSide, sideKey, f);
    if (!requireOffered(binding.name, objectForm ? `${path}.name` : path, `${path}`)) continue;
    checkProperty(binding.name, binding.messageProperty, `${path}.messageProperty`);
    checkProperty(binding.name, binding.attachmentsProperty, `${path}.attachmentsProperty`);
  }
  if (side.stopTool !== undefined) {
    if (requireOffered(side.stopTool, `${sideKey}.stopTool`, `${sideKey}.stopTool`)) {
      checkProperty(side.stopTool, side.stopToolResponseProperty, `${sideKey}.stopToolResponseProperty`);
    }
  } else if (side.stopToolResponseProperty !== undefined) {
    sink.warning({
      ...base,
      field: `${sideKey}.stopToolResponseProperty`,
      message: `${sideKey}.stopToolResponseProperty has no effect without ${sideKey}.stopTool.`,
      fix: `Add \`stopTool: '<tool name>'\` to ${sideKey} in ${agent.file}, or remove stopToolResponseProperty.`,
    });
  }
}

/** Per-agent rules: side prompts exist, dual_ai shape, tool exposure, session bindings, hooks. */
export function checkAgent(agent: ValidatedEntry<"agents">, v: ValidatedSet, sink: DiagnosticSink): void {
  const def = agent.definition;
  const base = { kind: "agents" as const, file: agent.file, name: agent.name };
  checkSide(agent, "sideA", def.sideA, v, sink);
  if (def.sideB) checkSide(agent, "sideB", def.sideB, v, sink);
  if (def.type === "dual_ai" && !def.sideB) {
    sink.error({
      ...base,
      field: "sideB",
      message: `Agent "${agent.name}" is dual_ai but has no sideB: both sides of a dual_ai conversation are AI and each needs a prompt.`,
      fix: `Add \`sideB: { label: 'Reviewer', prompt: '<prompt name>' }\` to ${agent.file}, or set \`type: 'ai_human'\` if a person answers side A.`,
    });
  }
  if (def.exposeAsTool && !def.toolDescription?.trim()) {
    sink.error({
      ...base,
      field: "toolDescription",
      message: `Agent "${agent.name}" has exposeAsTool: true but no toolDescription, so a model calling it is not told what it does.`,
      fix: `Add \`toolDescription: '<what the agent does, for the calling model>'\` to ${agent.file}.`,
    });
  }
  checkHookIds(agent, v, sink);
  if (def.type !== "dual_ai") return;
  if (def.maxSessionTurns === undefined) {
    sink.warning({
      ...base,
      field: "maxSessionTurns",
      message: `dual_ai agent "${agent.name}" has no maxSessionTurns: nothing bounds the session but the global step ceiling.`,
      fix: `Add \`maxSessionTurns: <turns per side>\` to ${agent.file}, sized to the task (e.g. 6 for a review loop).`,
    });
  }
  const sides = [def.sideA, def.sideB].filter((s): s is ParsedSideConfig => s !== undefined);
  if (!sides.some((s) => s.sessionStop !== undefined)) {
    sink.warning({
      ...base,
      field: def.sideB ? "sideB.sessionStop" : "sideA.sessionStop",
      message: `dual_ai agent "${agent.name}" has no sessionStop on either side: no tool call can end the session with a result.`,
      fix: `Add \`sessionStop: { name: '<tool>', messageProperty: '<argument>' }\` to the side that decides the work is done (and offer that tool in its prompt).`,
    });
  }
  if (!sides.some((s) => s.sessionFail !== undefined)) {
    sink.warning({
      ...base,
      field: "sideA.sessionFail",
      message: `dual_ai agent "${agent.name}" has no sessionFail on either side: it cannot report a failure its caller can understand.`,
      fix: `Add \`sessionFail: { name: '<tool>', messageProperty: 'reason' }\` to a side (and offer that tool in its prompt).`,
    });
  }
}
