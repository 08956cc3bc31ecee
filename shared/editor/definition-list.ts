/**
 * The rows of the definition list pages (Prompts, Models, Tools, Hooks, Effects, Endpoints): name, file, a one-line
 * summary, what uses each definition (from the graph's edges) and its problems, with a search over all of it.
 * Browser-safe.
 */
import type { GraphProjection } from "../graph-projection";
import { isDocObject } from "./doc";
import type { EditorView } from "./editor-view";
import { describeModel, modelSummary } from "./model-catalog";
import { promptToText } from "./prompt-text";

export const LIST_KINDS = ["prompts", "models", "tools", "hooks", "effects", "endpoints"] as const;
export type ListKind = (typeof LIST_KINDS)[number];
export const LIST_TITLE: Record<ListKind, string> = { prompts: "Prompts", models: "Models", tools: "Tools", hooks: "Hooks", effects: "Effects", endpoints: "Endpoints" };

export interface UsedBy {
  kind: string;
  name: string;
  /** How it is used: `side A`, `tool`, `model`, `fallback`, `include`, `subprompt`, `sessionStop`… */
  as: string;
}

export interface ListRow {
  name: string;
  file: string;
  summary: string;
  usedBy: UsedBy[];
  problems: number;
}

/** An endpoint or controller as the registry overview lists it. */
export interface EndpointLike {
  kind: "endpoint" | "controller";
  method: string;
  route: string;
  file: string;
}

const oneLine = (text: string, max = 120) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The rows of one kind of definition file, sorted by name. */
export function definitionRows(kind: Exclude<ListKind, "endpoints">, view: EditorView, graph: GraphProjection): ListRow[] {
  const nodeByDef = new Map(graph.nodes.map((n) => [n.defId, n]));
  const nodeById = new Map(graph.nodes.map((n) => [n.id, n]));
  const rows = view.definitions
    .filter((d) => d.kind === kind)
    .map((d): ListRow => {
      const node = nodeByDef.get(d.id);
      const v = d.value ?? {};
      const usedBy: UsedBy[] = [];
      const seen = new Set<string>();
      const add = (u: UsedBy) => {
        const key = `${u.kind}:${u.name}:${u.as}`;
        if (seen.has(key)) return;
        seen.add(key);
        usedBy.push(u);
      };
      if (node && kind !== "effects") {
        for (const e of graph.edges) {
          if (e.target !== node.id) continue;
          const source = nodeById.get(e.source);
          if (source) add({ kind: source.kind, name: source.name, as: e.kind === "side" ? (e.sourceHandle === "side-b" ? "side B" : "side A") : e.kind });
        }
        for (const l of node.tool?.lifecycle ?? []) add({ kind: "agent", name: l.agent, as: `${l.role} (side ${l.side})` });
      }
      let summary: string;
      if (kind === "prompts") {
        const text = str(v.toolDescription) ?? oneLine(promptToText(v.prompt));
        const model = str(v.model);
        const tools = Array.isArray(v.tools) ? v.tools.length : 0;
        summary = [model ? `model ${model}` : "no model", `${tools} tool${tools === 1 ? "" : "s"}`, text].filter(Boolean).join(" · ");
      } else if (kind === "models") summary = describeModel(modelSummary(d.name, d.value));
      else if (kind === "tools") summary = node?.tool?.description ?? str(v.description) ?? "";
      else if (kind === "hooks") summary = [node?.hook?.point ?? str(v.hook), node?.hook?.description ?? str(v.description)].filter(Boolean).join(" · ");
      else summary = str(v.description) ?? (isDocObject(v) && Object.keys(v).length > 0 ? "" : "did not load");
      const problems = view.diagnostics.filter((x) => x.file === d.file && x.severity === "error").length;
      return { name: d.name, file: d.file, summary: oneLine(summary, 160), usedBy, problems };
    });
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

/** The rows of the mounted thread endpoints and controllers. */
export function endpointRows(routes: { endpoints: EndpointLike[]; controllers: EndpointLike[] }, diagnostics: EditorView["diagnostics"]): ListRow[] {
  return [...routes.endpoints, ...routes.controllers]
    .map((r): ListRow => ({
      name: `${r.method} ${r.route}`,
      file: r.file,
      summary: r.kind === "endpoint" ? "thread endpoint" : "controller",
      usedBy: [],
      problems: diagnostics.filter((x) => x.file === r.file && x.severity === "error").length,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The rows whose name, file, summary or users contain every word of `query` (case-insensitive). */
export function searchRows(rows: readonly ListRow[], query: string): ListRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((r) => {
    const text = `${r.name} ${r.file} ${r.summary} ${r.usedBy.map((u) => `${u.kind} ${u.name} ${u.as}`).join(" ")}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

