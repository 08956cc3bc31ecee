/**
 * Builds what the graph editor loads (`EditorView`, see `shared/editor/editor-view.ts`) from a registry snapshot and
 * the definition files as written. Node only (reads the files).
 */
import fs from "node:fs";
import type { DefinitionKind } from "@/server/spec";
import { isEditableKind, toDocValue, type DocObject } from "@/shared/editor/doc";
import type { EditorDefinition, EditorView } from "@/shared/editor/editor-view";
import type { RegistrySnapshot } from "../types";
import { contentHash } from "./files";
import { readDefinitionSource } from "./source";

interface CacheEntry {
  hash: string;
  read: ReturnType<typeof readDefinitionSource>;
}
const sourceCache = new Map<string, CacheEntry>();

function readSource(absPath: string): { text: string; entry: CacheEntry } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(absPath, "utf8");
  } catch {
    return undefined;
  }
  const hash = contentHash(text);
  let entry = sourceCache.get(absPath);
  if (!entry || entry.hash !== hash) {
    entry = { hash, read: readDefinitionSource(text) };
    sourceCache.set(absPath, entry);
  }
  return { text, entry };
}

function loadedDefinition(snapshot: RegistrySnapshot, kind: DefinitionKind, file: string) {
  const maps = {
    agents: snapshot.agents,
    prompts: snapshot.prompts,
    models: snapshot.models,
    tools: snapshot.tools,
    hooks: snapshot.hooks,
    effects: snapshot.effects,
  } as const;
  for (const record of maps[kind].values()) if (record.file === file) return record;
  return undefined;
}

/** The editor's view of `snapshot`. */
export function buildEditorView(snapshot: RegistrySnapshot, options: { readonly: boolean; agentsDir: string }): EditorView {
  const definitions: EditorDefinition[] = [];
  for (const info of snapshot.files) {
    const record = loadedDefinition(snapshot, info.kind, info.file);
    const source = readSource(info.absPath);
    const baseName = info.file.replace(/^.*\//, "").replace(/\.[^.]+$/, "");
    const facts: EditorDefinition["facts"] = {};
    if (record && "argFields" in record && record.argFields) facts.argFields = record.argFields;
    if (record && "schemaFields" in record && record.schemaFields) facts.schemaFields = record.schemaFields;
    const loadedValue = record ? ((toDocValue(record.definition) as DocObject | undefined) ?? null) : null;
    let value: DocObject | null = loadedValue;
    let writable = false;
    let reason: string | undefined;
    if (isEditableKind(info.kind)) {
      const read = source?.entry.read;
      if (read?.ok) {
        value = read.value;
        writable = !options.readonly;
        if (options.readonly) reason = "definition files are read-only on this server (DEFINITIONS_READONLY=1)";
      } else {
        reason = source ? `the editor cannot write this file back: ${read?.reason ?? "unknown"}` : "the file cannot be read";
      }
    } else {
      reason = `${info.kind} are code: edit ${info.file} in your editor`;
    }
    if (info.package !== undefined) {
      writable = false;
      reason = `from the package ${info.package} (read-only): run \`studio unpack ${info.package}\` to get editable copies`;
    }
    const declared = value && typeof value.name === "string" ? value.name : undefined;
    definitions.push({
      id: info.file,
      kind: info.kind,
      name: info.name ?? (info.kind === "tools" ? baseName : declared ?? baseName),
      file: info.file,
      hash: source?.entry.hash ?? null,
      value,
      writable,
      ...(reason !== undefined ? { reason } : {}),
      loaded: record !== undefined,
      facts,
    });
  }
  return {
    version: snapshot.version,
    loadedAt: snapshot.loadedAt,
    agentsDir: options.agentsDir,
    readonly: options.readonly,
    ...(options.readonly ? { readonlyBecause: "server" as const } : {}),
    definitions,
    diagnostics: [...snapshot.diagnostics],
  };
}
