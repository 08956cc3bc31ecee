/**
 * The agent graph as nodes and edges for the visual editor: agents (with their sides), prompts, models, tools and
 * hooks, linked by side → prompt, prompt → model, prompt → tool / subprompt / handoff agent / subagent agent,
 * prompt → included prompt, model → fallback and → hook edges. Subagent edges carry their normalised mode. Issues
 * (registry diagnostics, or live checks of unsaved documents) are attached to the node they concern.
 *
 * Pure and browser-safe: it works on document values, so the editor re-projects unsaved edits on every change.
 */
import type { DefinitionKind } from "@/server/spec";
import type { Diagnostic } from "./diagnostic";
import { isDocObject, type DocObject, type DocValue } from "./editor/doc";
import { bindingName, liveIssues, namesByKind, sideBJobIssues, toolEntryName, type CheckDoc } from "./editor/live-checks";

export type GraphNodeKind = "agent" | "prompt" | "model" | "tool" | "hook" | "file";

export interface NodeIssue {
  severity: "error" | "warning";
  /** Dotted field path in the definition ('' = the whole file). */
  field: string;
  message: string;
  fix?: string;
  /** `registry`: a diagnostic of the saved files; `editor`: a check of the unsaved document or an advisory. */
  source: "registry" | "editor";
}

export interface SideView {
  key: "a" | "b";
  field: "sideA" | "sideB";
  label?: string;
  prompt?: string;
  stopOnResponse: boolean;
  stopTool?: string;
  maxSteps?: number;
  sessionStop?: string;
  sessionFail?: string;
  sessionStatus?: string;
}

export interface SubagentMode {
  blocking: boolean;
  resumable: false | { receives_messages: string; maxInstances?: number; parentCommunication: "implicit" | "explicit" };
  immediate: boolean;
  optional?: string;
}

export interface GraphNode {
  id: string;
  kind: GraphNodeKind;
  name: string;
  /** The definition (editor document id = file) the node shows. */
  defId: string;
  file: string;
  writable: boolean;
  issues: NodeIssue[];
  agent?: { type: string; title?: string; exposeAsTool: boolean; maxSessionTurns?: number; sides: SideView[]; variables: string[] };
  prompt?: {
    model?: string;
    toolCount: number;
    includes: string[];
    envParts: string[];
    variables: string[];
    schemaFields?: string[];
    runtimeTools: string[];
    flags: string[];
  };
  model?: { provider?: string; model?: string; fallbacks: string[]; capabilities: string[]; price?: string };
  tool?: { description?: string; argFields: string[]; lifecycle: Array<{ agent: string; side: "A" | "B"; role: string }> };
  hook?: { point?: string; description?: string };
}

export type GraphEdgeKind = "side" | "model" | "fallback" | "tool" | "subprompt" | "handoff" | "subagent" | "include" | "hook";

export interface GraphEdge {
  id: string;
  kind: GraphEdgeKind;
  source: string;
  target: string;
  /** `side-a` / `side-b` for side edges. */
  sourceHandle?: string;
  /** For tools entries: the prompt document and the entry's index in `tools`. */
  entry?: { defId: string; index: number };
  subagent?: SubagentMode;
}

export interface ProjectionDefinition {
  id: string;
  kind: DefinitionKind;
  name: string;
  file: string;
  value: DocObject | null;
  writable: boolean;
  facts?: { argFields?: string[]; schemaFields?: string[] };
}

export interface ProjectionInput {
  definitions: readonly ProjectionDefinition[];
  diagnostics: readonly Diagnostic[];
  /** Documents with unsaved edits: their live checks replace the (stale) registry diagnostics. */
  dirty?: ReadonlySet<string>;
  /** Keep only what this agent reaches (its sides' prompts, their tools, subagents and handoffs, recursively). */
  root?: string;
}

export interface GraphProjection {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

const KIND_OF: Partial<Record<DefinitionKind, GraphNodeKind>> = { agents: "agent", prompts: "prompt", models: "model", tools: "tool", hooks: "hook" };
const str = (v: DocValue | undefined) => (typeof v === "string" ? v : undefined);
const num = (v: DocValue | undefined) => (typeof v === "number" ? v : undefined);
const strings = (v: DocValue | undefined) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

export function nodeId(kind: GraphNodeKind, name: string): string {
  return `${kind}:${name}`;
}

function sideView(key: "a" | "b", side: DocObject): SideView {
  const view: SideView = { key, field: key === "a" ? "sideA" : "sideB", stopOnResponse: side.stopOnResponse !== false };
  const set = <K extends keyof SideView>(k: K, v: SideView[K] | undefined) => {
    if (v !== undefined) view[k] = v;
  };
  set("label", str(side.label));
  set("prompt", str(side.prompt));
  set("stopTool", str(side.stopTool));
  set("maxSteps", num(side.maxSteps));
  set("sessionStop", bindingName(side.sessionStop) ?? str(side.stopSessionTool) ?? str(side.endSessionTool));
  set("sessionFail", bindingName(side.sessionFail) ?? str(side.failSessionTool));
  set("sessionStatus", bindingName(side.sessionStatus) ?? str(side.statusTool));
  return view;
}

export function subagentMode(entry: DocValue): SubagentMode {
  const obj = isDocObject(entry) ? entry : {};
  const r = obj.resumable;
  const mode: SubagentMode = {
    blocking: obj.blocking !== false,
    resumable: isDocObject(r)
      ? {
          receives_messages: str(r.receives_messages) ?? "side_a",
          parentCommunication: r.parentCommunication === "explicit" ? "explicit" : "implicit",
          ...(num(r.maxInstances) !== undefined ? { maxInstances: num(r.maxInstances)! } : {}),
        }
      : false,
    immediate: obj.immediate === true || isDocObject(obj.immediate),
  };
  if (str(obj.optional)) mode.optional = str(obj.optional)!;
  return mode;
}

/** Projects the definitions into the editor's graph. */
export function projectGraph(input: ProjectionInput): GraphProjection {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const byName = new Map<string, GraphNode>();
  const checkDocs: CheckDoc[] = input.definitions.map((d) => ({ kind: d.kind, name: d.name, value: d.value }));
  const names = namesByKind(checkDocs);
  const defById = new Map(input.definitions.map((d) => [d.id, d]));

  for (const def of input.definitions) {
    const kind = KIND_OF[def.kind];
    const issues: NodeIssue[] = [];
    if (!kind || (!def.value && def.kind !== "tools")) {
      if (def.kind === "effects") continue;
      const node: GraphNode = { id: `file:${def.file}`, kind: "file", name: def.name, defId: def.id, file: def.file, writable: false, issues };
      nodes.push(node);
      continue;
    }
    let id = nodeId(kind, def.name);
    if (byName.has(id)) id = `${id}@${def.file}`;
    const node: GraphNode = { id, kind, name: def.name, defId: def.id, file: def.file, writable: def.writable, issues };
    const v = def.value ?? {};
    if (kind === "agent") {
      const sides = [isDocObject(v.sideA) ? sideView("a", v.sideA) : undefined, isDocObject(v.sideB) ? sideView("b", v.sideB) : undefined].filter((s): s is SideView => s !== undefined);
      node.agent = { type: str(v.type) ?? "ai_human", exposeAsTool: v.exposeAsTool === true, sides, variables: variableNames(v) };
      if (str(v.title)) node.agent.title = str(v.title);
      if (num(v.maxSessionTurns) !== undefined) node.agent.maxSessionTurns = num(v.maxSessionTurns);
    } else if (kind === "prompt") {
      const parts = Array.isArray(v.prompt) ? v.prompt.filter(isDocObject) : [];
      const tools = Array.isArray(v.tools) ? v.tools : [];
      const resumable = tools.some((t) => isDocObject(t) && isDocObject(t.resumable));
      const flags = (["includeChat", "includePastTools", "parallelToolCalls"] as const).filter((f) => v[f] === true);
      if (str(v.toolChoice) && v.toolChoice !== "auto") flags.push(`toolChoice: ${str(v.toolChoice)}` as never);
      node.prompt = {
        ...(str(v.model) ? { model: str(v.model) } : {}),
        toolCount: tools.length,
        includes: parts.filter((p) => p.type === "include").map((p) => str(p.prompt) ?? "?"),
        envParts: parts.filter((p) => p.type === "env").map((p) => str(p.property) ?? "?"),
        variables: variableNames(v),
        ...(def.facts?.schemaFields ? { schemaFields: def.facts.schemaFields } : {}),
        runtimeTools: resumable ? ["subagent_create", "subagent_message"] : [],
        flags,
      };
    } else if (kind === "model") {
      const caps = isDocObject(v.capabilities) ? Object.entries(v.capabilities).filter(([, x]) => x === true).map(([k]) => k) : [];
      const price = num(v.inputPrice) !== undefined || num(v.outputPrice) !== undefined ? `$${num(v.inputPrice) ?? "?"} / $${num(v.outputPrice) ?? "?"} per M` : undefined;
      node.model = { fallbacks: strings(v.fallbacks), capabilities: caps, ...(str(v.provider) ? { provider: str(v.provider) } : {}), ...(str(v.model) ? { model: str(v.model) } : {}), ...(price ? { price } : {}) };
    } else if (kind === "tool") {
      node.tool = { argFields: def.facts?.argFields ?? [], lifecycle: [], ...(str(v.description) ? { description: str(v.description) } : {}) };
    } else if (kind === "hook") {
      node.hook = { ...(str(v.hook) ? { point: str(v.hook) } : {}), ...(str(v.description) ? { description: str(v.description) } : {}) };
    }
    if (!byName.has(nodeId(kind, def.name))) byName.set(nodeId(kind, def.name), node);
    nodes.push(node);
  }

  const find = (kind: GraphNodeKind, name: string | undefined) => (name === undefined ? undefined : byName.get(nodeId(kind, name)));
  const edge = (e: Omit<GraphEdge, "id">) => edges.push({ ...e, id: `${e.kind}:${e.source}${e.sourceHandle ? `#${e.sourceHandle}` : ""}->${e.target}${e.entry ? `#${e.entry.index}` : ""}` });

  for (const node of nodes) {
    const v = defById.get(node.defId)?.value;
    if (!v) continue;
    if (node.agent) {
      for (const side of node.agent.sides) {
        const target = find("prompt", side.prompt);
        if (target) edge({ kind: "side", source: node.id, target: target.id, sourceHandle: `side-${side.key}` });
        for (const [role, tool] of [["stopTool", side.stopTool], ["sessionStop", side.sessionStop], ["sessionFail", side.sessionFail], ["sessionStatus", side.sessionStatus]] as const) {
          find("tool", tool)?.tool?.lifecycle.push({ agent: node.name, side: side.key === "a" ? "A" : "B", role });
        }
      }
      for (const hook of strings(v.hooks)) {
        const target = find("hook", hook);
        if (target) edge({ kind: "hook", source: node.id, target: target.id });
      }
    }
    if (node.prompt) {
      const model = find("model", node.prompt.model);
      if (model) edge({ kind: "model", source: node.id, target: model.id });
      for (const inc of node.prompt.includes) {
        const target = find("prompt", inc);
        if (target) edge({ kind: "include", source: node.id, target: target.id });
      }
      const tools = Array.isArray(v.tools) ? v.tools : [];
      tools.forEach((entry, index) => {
        const name = toolEntryName(entry);
        const tool = find("tool", name);
        const sub = find("prompt", name);
        const agent = find("agent", name);
        const at = { defId: node.defId, index };
        if (tool) edge({ kind: "tool", source: node.id, target: tool.id, entry: at });
        else if (sub) edge({ kind: "subprompt", source: node.id, target: sub.id, entry: at });
        else if (agent?.agent?.type === "dual_ai") edge({ kind: "subagent", source: node.id, target: agent.id, entry: at, subagent: subagentMode(entry) });
        else if (agent) edge({ kind: "handoff", source: node.id, target: agent.id, entry: at });
      });
      for (const hook of strings(v.hooks)) {
        const target = find("hook", hook);
        if (target) edge({ kind: "hook", source: node.id, target: target.id });
      }
    }
    if (node.model) {
      for (const f of node.model.fallbacks) {
        const target = find("model", f);
        if (target) edge({ kind: "fallback", source: node.id, target: target.id });
      }
    }
  }

  attachIssues(input, defById, nodes, names);
  return input.root !== undefined ? reachable({ nodes, edges }, nodeId("agent", input.root)) : { nodes, edges };
}

function variableNames(v: DocObject): string[] {
  return Array.isArray(v.variables) ? v.variables.filter(isDocObject).map((x) => str(x.name) ?? "?") : [];
}

function attachIssues(
  input: ProjectionInput,
  defById: ReadonlyMap<string, ProjectionDefinition>,
  nodes: GraphNode[],
  names: ReturnType<typeof namesByKind>,
): void {
  const byFile = new Map(nodes.map((n) => [n.file, n]));
  const dirty = input.dirty ?? new Set<string>();
  for (const d of input.diagnostics) {
    const node = byFile.get(d.file);
    if (!node || dirty.has(node.defId)) continue;
    node.issues.push({ severity: d.severity, field: d.field, message: d.message, fix: d.fix, source: "registry" });
  }
  for (const node of nodes) {
    const def = defById.get(node.defId);
    if (!def?.value) continue;
    if (dirty.has(node.defId) && (def.kind === "agents" || def.kind === "prompts" || def.kind === "models")) {
      for (const issue of liveIssues(def.kind, def.value, names)) node.issues.push({ ...issue, source: "editor" });
    }
    if (def.kind === "agents") for (const issue of sideBJobIssues(def.value, names)) node.issues.push({ ...issue, source: "editor" });
  }
}

/** The part of the graph reachable from `rootId` along edges, plus the nodes in `keep`. */
export function reachable(graph: GraphProjection, rootId: string, keep: ReadonlySet<string> = new Set()): GraphProjection {
  const out = new Map<string, GraphEdge[]>();
  for (const e of graph.edges) out.set(e.source, [...(out.get(e.source) ?? []), e]);
  const seen = new Set<string>();
  const queue = [...(graph.nodes.some((n) => n.id === rootId) ? [rootId] : []), ...keep];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of out.get(id) ?? []) queue.push(e.target);
  }
  return { nodes: graph.nodes.filter((n) => seen.has(n.id)), edges: graph.edges.filter((e) => seen.has(e.source) && seen.has(e.target)) };
}
