/**
 * The registry's link rules, checked on unsaved editor documents so the canvas can show problems before a save
 * (after a save, the registry's own diagnostics take over), plus advisory checks the registry does not make: a
 * `dual_ai` side B without a real job of its own. Lenient: documents may be half-written. Browser-safe.
 */
import type { DefinitionKind } from "@/server/spec";
import { isDocObject, type DocObject, type DocValue, type EditableKind } from "./doc";
import { validateDoc } from "./doc-validate";

export interface LiveIssue {
  severity: "error" | "warning";
  field: string;
  message: string;
  fix?: string;
}

export interface CheckDoc {
  kind: DefinitionKind;
  name: string;
  value: DocObject | null;
}

const str = (v: DocValue | undefined) => (typeof v === "string" ? v : undefined);
const SESSION = ["sessionStop", "sessionFail", "sessionStatus"] as const;
const MAX_TOOLS = 8;

export function bindingName(v: DocValue | undefined): string | undefined {
  if (typeof v === "string") return v;
  if (isDocObject(v)) return str(v.name);
  return undefined;
}

export function toolEntryName(v: DocValue | undefined): string | undefined {
  return bindingName(v);
}

/** Names by kind, for reference checks. */
export function namesByKind(docs: readonly CheckDoc[]): Record<DefinitionKind, Map<string, CheckDoc>> {
  const out = { agents: new Map(), prompts: new Map(), models: new Map(), tools: new Map(), hooks: new Map(), effects: new Map() } as Record<DefinitionKind, Map<string, CheckDoc>>;
  for (const d of docs) if (!out[d.kind].has(d.name)) out[d.kind].set(d.name, d);
  return out;
}

function checkAgent(v: DocObject, names: Record<DefinitionKind, Map<string, CheckDoc>>, out: LiveIssue[]): void {
  const type = str(v.type) ?? "ai_human";
  for (const sideKey of ["sideA", "sideB"] as const) {
    const side = v[sideKey];
    if (!isDocObject(side)) continue;
    const promptName = str(side.prompt);
    const prompt = promptName ? names.prompts.get(promptName) : undefined;
    if (promptName && !prompt) out.push({ severity: "error", field: `${sideKey}.prompt`, message: `${sideKey} uses prompt "${promptName}", which does not exist.` });
    const offered = prompt?.value && Array.isArray(prompt.value.tools) ? prompt.value.tools.map(toolEntryName) : [];
    const bound: Array<[string, string | undefined]> = [[`${sideKey}.stopTool`, str(side.stopTool)], ...SESSION.map((f) => [`${sideKey}.${f}`, bindingName(side[f])] as [string, string | undefined])];
    for (const [field, tool] of bound) {
      if (tool && prompt && !offered.includes(tool)) {
        out.push({ severity: "error", field, message: `${field} is tool "${tool}", but prompt "${promptName}" does not offer it.`, fix: `Add "${tool}" to the tools of prompt "${promptName}".` });
      }
    }
  }
  if (type === "dual_ai" && !isDocObject(v.sideB)) out.push({ severity: "error", field: "sideB", message: "A dual_ai agent needs a side B with its own prompt." });
  if (v.exposeAsTool === true && !str(v.toolDescription)?.trim()) {
    out.push({ severity: "error", field: "toolDescription", message: "exposeAsTool is true but there is no toolDescription: the calling model is not told what the agent does." });
  }
  if (type !== "dual_ai") return;
  const sides = [v.sideA, v.sideB].filter(isDocObject);
  if (v.maxSessionTurns === undefined) out.push({ severity: "warning", field: "maxSessionTurns", message: "No maxSessionTurns: nothing bounds the session but the global step ceiling." });
  if (!sides.some((s) => s.sessionStop !== undefined || s.stopSessionTool !== undefined || s.endSessionTool !== undefined)) {
    out.push({ severity: "warning", field: "sideB.sessionStop", message: "No sessionStop on either side: no tool call can end the session with a result." });
  }
  if (!sides.some((s) => s.sessionFail !== undefined || s.failSessionTool !== undefined)) {
    out.push({ severity: "warning", field: "sideA.sessionFail", message: "No sessionFail on either side: the agent cannot report a failure its caller understands." });
  }
}

function checkPrompt(v: DocObject, names: Record<DefinitionKind, Map<string, CheckDoc>>, out: LiveIssue[]): void {
  const model = str(v.model);
  if (model && !names.models.has(model)) out.push({ severity: "error", field: "model", message: `Model "${model}" does not exist.` });
  if (Array.isArray(v.prompt)) {
    v.prompt.forEach((part, i) => {
      if (isDocObject(part) && part.type === "include" && str(part.prompt) && !names.prompts.has(str(part.prompt)!)) {
        out.push({ severity: "error", field: `prompt.${i}.prompt`, message: `Included prompt "${str(part.prompt)}" does not exist.` });
      }
    });
  }
  if (!Array.isArray(v.tools)) return;
  v.tools.forEach((entry, i) => {
    const name = toolEntryName(entry);
    if (!name) return;
    const field = typeof entry === "string" ? `tools.${i}` : `tools.${i}.name`;
    const agent = names.agents.get(name);
    if (names.tools.has(name) || names.prompts.has(name)) return;
    if (!agent) out.push({ severity: "error", field, message: `"${name}" is not a tool, prompt or agent.` });
    else if (agent.value?.exposeAsTool !== true) out.push({ severity: "error", field, message: `Agent "${name}" is not exposed as a tool (exposeAsTool is not true).` });
  });
  if (v.tools.length > MAX_TOOLS) {
    out.push({ severity: "warning", field: "tools", message: `${v.tools.length} tools (more than ${MAX_TOOLS}): models choose poorly from long, mixed tool lists; split unrelated domains into subagents or subprompts.` });
  }
}

/**
 * Advisory: side B of a `dual_ai` agent should have a job of its own — a different prompt, and tools or a session
 * binding to act with. Otherwise the second AI only echoes the first.
 */
export function sideBJobIssues(v: DocObject, names: Record<DefinitionKind, Map<string, CheckDoc>>): LiveIssue[] {
  if (str(v.type) !== "dual_ai" || !isDocObject(v.sideA) || !isDocObject(v.sideB)) return [];
  const a = str(v.sideA.prompt);
  const b = str(v.sideB.prompt);
  if (b && a === b) {
    return [{ severity: "warning", field: "sideB.prompt", message: `Both sides run prompt "${b}": side B has no job of its own (a model reviewing its own output tends to agree with itself).`, fix: "Give side B its own prompt, e.g. a reviewer that judges side A's work against the brief." }];
  }
  const prompt = b ? names.prompts.get(b)?.value : undefined;
  const tools = prompt && Array.isArray(prompt.tools) ? prompt.tools.length : 0;
  const side = v.sideB;
  const acts = tools > 0 || side.stopTool !== undefined || SESSION.some((f) => side[f] !== undefined);
  if (prompt && !acts) {
    return [{ severity: "warning", field: "sideB", message: `Side B (prompt "${b}") offers no tools and binds no session tool: it can only talk back, which is rarely a real job.`, fix: "Give side B a decision to make: bind sessionStop to an approval tool, or offer it tools." }];
  }
  return [];
}

/** Schema issues and link problems of one unsaved document. */
export function liveIssues(kind: EditableKind, value: DocObject, names: Record<DefinitionKind, Map<string, CheckDoc>>): LiveIssue[] {
  const out: LiveIssue[] = validateDoc(kind, value).map((i) => ({ severity: "error" as const, field: i.path, message: i.message }));
  if (kind === "agents") checkAgent(value, names, out);
  if (kind === "prompts") checkPrompt(value, names, out);
  if (kind === "models" && Array.isArray(value.fallbacks)) {
    value.fallbacks.forEach((f, i) => {
      if (typeof f === "string" && !names.models.has(f)) out.push({ severity: "error", field: `fallbacks.${i}`, message: `Fallback model "${f}" does not exist.` });
    });
  }
  return out;
}
