/**
 * Who references a definition, and the same documents with a definition renamed or its references removed. Works on
 * document values (as written), so the editor can rename before saving and the server can check a save. Every place
 * a name can appear as data is covered: agent sides (prompt, stopTool, session bindings and their deprecated
 * aliases), prompt tools entries, include parts, models, fallbacks and hook lists. Browser-safe.
 */
import type { DefinitionKind } from "@/server/spec";
import { isDocObject, setAt, type DocObject, type DocValue } from "./doc";

export interface RefDoc {
  id: string;
  kind: DefinitionKind;
  /** Registry name (tools: the file name). */
  name: string;
  value: DocObject | null;
}

export interface Reference {
  /** The referencing document. */
  id: string;
  kind: DefinitionKind;
  name: string;
  /** Dotted path of the string that holds the name. */
  path: string;
  /** Whether removing the reference leaves a valid definition (a side's prompt or a prompt's model cannot go). */
  removable: boolean;
  /** Path of what to remove with it (the tools entry, the include part, the binding). */
  removePath: string;
}

const SESSION_FIELDS = ["sessionStop", "sessionFail", "sessionStatus", "failSessionTool", "statusTool", "stopSessionTool", "endSessionTool"];

/** What a prompt tools entry named `name` refers to: a tool first, then a prompt, then an agent (as the registry does). */
export function toolEntryTarget(docs: readonly RefDoc[], name: string): "tools" | "prompts" | "agents" | undefined {
  for (const kind of ["tools", "prompts", "agents"] as const) if (docs.some((d) => d.kind === kind && d.name === name)) return kind;
  return undefined;
}

function str(value: DocValue | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Every reference to the definition `name` of kind `kind` in `docs`. */
export function findReferences(docs: readonly RefDoc[], kind: DefinitionKind, name: string): Reference[] {
  const out: Reference[] = [];
  const entryTarget = toolEntryTarget(docs, name);
  for (const doc of docs) {
    const v = doc.value;
    if (!v) continue;
    const add = (path: string, removable: boolean, removePath = path) =>
      out.push({ id: doc.id, kind: doc.kind, name: doc.name, path, removable, removePath });
    if (doc.kind === "agents") {
      for (const sideKey of ["sideA", "sideB"]) {
        const side = v[sideKey];
        if (!isDocObject(side)) continue;
        if (kind === "prompts" && str(side.prompt) === name) add(`${sideKey}.prompt`, false);
        if (kind !== "tools") continue;
        if (str(side.stopTool) === name) add(`${sideKey}.stopTool`, true);
        for (const f of SESSION_FIELDS) {
          const b = side[f];
          if (str(b) === name) add(`${sideKey}.${f}`, true);
          else if (isDocObject(b) && str(b.name) === name) add(`${sideKey}.${f}.name`, true, `${sideKey}.${f}`);
        }
      }
    }
    if (doc.kind === "prompts") {
      if (kind === "models" && str(v.model) === name) add("model", false);
      if (Array.isArray(v.tools) && entryTarget === kind) {
        v.tools.forEach((entry, i) => {
          if (str(entry) === name) add(`tools.${i}`, true);
          else if (isDocObject(entry) && str(entry.name) === name) add(`tools.${i}.name`, true, `tools.${i}`);
        });
      }
      if (kind === "prompts" && Array.isArray(v.prompt)) {
        v.prompt.forEach((part, i) => {
          if (isDocObject(part) && part.type === "include" && str(part.prompt) === name) add(`prompt.${i}.prompt`, true, `prompt.${i}`);
        });
      }
    }
    if (doc.kind === "models" && kind === "models" && Array.isArray(v.fallbacks)) {
      v.fallbacks.forEach((f, i) => {
        if (str(f) === name) add(`fallbacks.${i}`, true);
      });
    }
    if ((doc.kind === "agents" || doc.kind === "prompts") && kind === "hooks" && Array.isArray(v.hooks)) {
      v.hooks.forEach((h, i) => {
        if (str(h) === name) add(`hooks.${i}`, true);
      });
    }
  }
  return out;
}

/** The documents that change when `from` (kind `kind`) is renamed to `to`: id → new value. */
export function renameReferences(docs: readonly RefDoc[], kind: DefinitionKind, from: string, to: string): Map<string, DocObject> {
  const changed = new Map<string, DocObject>();
  for (const ref of findReferences(docs, kind, from)) {
    const base = changed.get(ref.id) ?? docs.find((d) => d.id === ref.id)?.value;
    if (!base) continue;
    changed.set(ref.id, setAt(base, ref.path, to));
  }
  return changed;
}

/** The documents that change when the removable references to `name` are removed: id → new value. */
export function removeReferences(docs: readonly RefDoc[], kind: DefinitionKind, name: string): Map<string, DocObject> {
  const changed = new Map<string, DocObject>();
  // Remove from the end so that array indexes stay valid.
  const refs = findReferences(docs, kind, name)
    .filter((r) => r.removable)
    .sort((a, b) => b.removePath.localeCompare(a.removePath, undefined, { numeric: true }));
  for (const ref of refs) {
    const base = changed.get(ref.id) ?? docs.find((d) => d.id === ref.id)?.value;
    if (!base) continue;
    let next = setAt(base, ref.removePath, undefined);
    if (/^side[AB]\.stopTool$/.test(ref.removePath)) next = setAt(next, ref.removePath.replace("stopTool", "stopToolResponseProperty"), undefined);
    changed.set(ref.id, next);
  }
  return changed;
}
