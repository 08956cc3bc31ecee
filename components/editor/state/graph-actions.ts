/**
 * Edits made on the canvas, as document changes: connecting nodes by dragging, removing an edge, renaming and
 * deleting a definition with its references. Pure: each returns the changes to dispatch, or a refusal message.
 */
import type { GraphEdge, GraphNode } from "@/shared/graph-projection";
import { getAt, isDocObject, setAt, type DocObject, type DocValue } from "@/shared/editor/doc";
import { findReferences, removeReferences, renameReferences, type Reference } from "@/shared/editor/references";
import { docName, type Docs, type EditorAction } from "./editor-state";
import { docByNodeKind, refDocs } from "./selectors";

export type Outcome = { ok: true; action: EditorAction; select?: string } | { ok: false; message: string };

const entryName = (e: DocValue) => (typeof e === "string" ? e : isDocObject(e) && typeof e.name === "string" ? e.name : undefined);

function valueOf(docs: Docs, node: GraphNode): DocObject | undefined {
  const doc = docs[node.defId];
  return doc?.value && doc.writable ? doc.value : undefined;
}

/** A drag from `source` to `target`: side → prompt sets the side's prompt; prompt → tool/prompt/agent adds a tools entry. */
export function connect(docs: Docs, source: GraphNode, target: GraphNode, handle: string | null): Outcome {
  const value = valueOf(docs, source);
  if (!value) return { ok: false, message: `${source.name} cannot be edited here: ${docs[source.defId]?.reason ?? "read-only"}.` };
  if (source.kind === "agent" && target.kind === "prompt") {
    const side = handle === "side-b" ? "sideB" : "sideA";
    return { ok: true, action: { type: "edit", changes: { [source.defId]: setAt(value, `${side}.prompt`, target.name) } } };
  }
  if (source.kind === "model" && target.kind === "model") {
    const fallbacks = Array.isArray(value.fallbacks) ? value.fallbacks : [];
    if (fallbacks.includes(target.name)) return { ok: false, message: `${source.name} already falls back to ${target.name}.` };
    return { ok: true, action: { type: "edit", changes: { [source.defId]: setAt(value, "fallbacks", [...fallbacks, target.name]) } } };
  }
  if (source.kind !== "prompt") return { ok: false, message: "Drag from a prompt or from an agent's side." };
  if (target.kind === "model") return { ok: true, action: { type: "edit", changes: { [source.defId]: setAt(value, "model", target.name) } } };
  const tools = Array.isArray(value.tools) ? value.tools : [];
  if (tools.some((e) => entryName(e) === target.name)) return { ok: false, message: `${source.name} already offers ${target.name}.` };
  const changes: Record<string, DocObject> = {};
  let entry: DocValue = target.name;
  let kind = target.kind === "tool" ? "tool" : target.kind === "prompt" ? "subprompt" : "handoff";
  if (target.kind === "agent") {
    const agentDoc = docs[target.defId];
    if (target.agent?.type === "dual_ai") {
      entry = { name: target.name };
      kind = "subagent";
    }
    if (agentDoc?.value && agentDoc.writable && agentDoc.value.exposeAsTool !== true) changes[target.defId] = setAt(agentDoc.value, "exposeAsTool", true);
  } else if (target.kind !== "tool" && target.kind !== "prompt") return { ok: false, message: `A prompt cannot offer a ${target.kind}.` };
  changes[source.defId] = setAt(value, "tools", [...tools, entry]);
  return { ok: true, action: { type: "edit", changes }, select: `${kind}:${source.id}->${target.id}#${tools.length}` };
}

/** Removes what an edge stands for; side and model edges cannot be removed (a side needs a prompt, a prompt a model). */
export function removeEdge(docs: Docs, edge: GraphEdge, nodes: ReadonlyMap<string, GraphNode>): Outcome {
  const source = nodes.get(edge.source);
  const target = nodes.get(edge.target);
  if (!source || !target) return { ok: false, message: "Unknown edge." };
  const value = valueOf(docs, source);
  if (!value) return { ok: false, message: `${source.name} cannot be edited here.` };
  if (edge.entry) {
    const tools = Array.isArray(value.tools) ? value.tools : [];
    return { ok: true, action: { type: "edit", changes: { [source.defId]: setAt(value, "tools", tools.filter((_, i) => i !== edge.entry!.index)) } } };
  }
  if (edge.kind === "include" && Array.isArray(value.prompt)) {
    const parts = value.prompt.filter((p) => !(isDocObject(p) && p.type === "include" && p.prompt === target.name));
    return { ok: true, action: { type: "edit", changes: { [source.defId]: setAt(value, "prompt", parts) } } };
  }
  if (edge.kind === "fallback" && Array.isArray(value.fallbacks)) {
    return { ok: true, action: { type: "edit", changes: { [source.defId]: setAt(value, "fallbacks", value.fallbacks.filter((f) => f !== target.name)) } } };
  }
  if (edge.kind === "hook" && Array.isArray(value.hooks)) {
    return { ok: true, action: { type: "edit", changes: { [source.defId]: setAt(value, "hooks", value.hooks.filter((h) => h !== target.name)) } } };
  }
  return { ok: false, message: edge.kind === "side" ? "A side always runs a prompt: choose another prompt in the agent's form." : "A prompt always has a model: choose another one in the prompt's form." };
}

/** Renames a definition and every reference to it (tools: the file is renamed at save). */
export function rename(docs: Docs, defId: string, to: string): Outcome {
  const doc = docs[defId];
  if (!doc) return { ok: false, message: "Unknown definition." };
  const from = docName(doc);
  if (to === from) return { ok: false, message: "That is already its name." };
  if (docByNodeKind(docs, doc.kind, to)) return { ok: false, message: `Another ${doc.kind.slice(0, -1)} is already named "${to}".` };
  const changes = Object.fromEntries(renameReferences(refDocs(docs), doc.kind, from, to));
  if (doc.kind === "tools") return { ok: true, action: { type: "renameTool", id: defId, to, changes } };
  if (!doc.value) return { ok: false, message: "This definition cannot be edited here." };
  changes[defId] = setAt(changes[defId] ?? doc.value, doc.kind === "hooks" ? "id" : "name", to);
  return { ok: true, action: { type: "edit", changes } };
}

export function references(docs: Docs, defId: string): Reference[] {
  const doc = docs[defId];
  return doc ? findReferences(refDocs(docs), doc.kind, docName(doc)).filter((r) => r.id !== defId) : [];
}

/** Deletes a definition; with `removeRefs`, the references that can go are removed too (tools entries, includes...). */
export function remove(docs: Docs, defId: string, removeRefs: boolean): Outcome {
  const doc = docs[defId];
  if (!doc) return { ok: false, message: "Unknown definition." };
  const changes = removeRefs ? Object.fromEntries([...removeReferences(refDocs(docs), doc.kind, docName(doc))].filter(([id]) => id !== defId)) : {};
  return { ok: true, action: { type: "delete", id: defId, changes } };
}

/** The tools entry an edge stands for, read from its prompt document. */
export function entryOf(docs: Docs, edge: GraphEdge): DocValue | undefined {
  if (!edge.entry) return undefined;
  return getAt(docs[edge.entry.defId]?.value, `tools.${edge.entry.index}`) as DocValue | undefined;
}
