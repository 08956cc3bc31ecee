/**
 * A registry snapshot of the editor's unsaved draft: the saved snapshot's loaded files with the draft's changes applied
 * in memory, validated and linked exactly as the registry does it. Nothing is written. "Try it" runs a thread on it.
 */
import { createHash } from "node:crypto";
import { isCodeMarker, isDocObject, type DocValue } from "@/shared/editor/doc";
import { validateDoc } from "@/shared/editor/doc-validate";
import type { SaveChange } from "@/shared/editor/save-change";
import type { Diagnostic } from "@/shared/diagnostic";
import { buildSnapshot, inputsOf } from "../registry";
import type { FoundFile } from "../loader";
import type { LoadedFile, RegistrySnapshot } from "../types";
import { DefinitionWriteError, type WriteIssue } from "./errors";
import { parseDefinitionPath } from "./definition-path";

/**
 * The document value as the definition module would export it: code markers (`{ $code }`) take the value the saved
 * module exported at the same place; a marker with nothing saved behind it is an issue (its code never ran).
 */
function runtimeValue(doc: DocValue, saved: unknown, path: string, issues: string[]): unknown {
  if (isCodeMarker(doc)) {
    if (saved === undefined) issues.push(path);
    return saved;
  }
  if (Array.isArray(doc)) return doc.map((v, i) => runtimeValue(v, Array.isArray(saved) ? saved[i] : undefined, path ? `${path}.${i}` : String(i), issues));
  if (isDocObject(doc)) {
    const from = typeof saved === "object" && saved !== null ? (saved as Record<string, unknown>) : {};
    return Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, runtimeValue(v, from[k], path ? `${path}.${k}` : k, issues)]));
  }
  return doc;
}

/** The id of a draft: a hash of its changes, so one draft tried twice is built once. */
export function draftId(changes: readonly SaveChange[]): string {
  return `draft_${createHash("sha256").update(JSON.stringify(changes)).digest("hex").slice(0, 16)}`;
}

const diagnosticKey = (d: Diagnostic) => `${d.file}\u0000${d.field}\u0000${d.message}`;

/**
 * Builds the draft's snapshot on top of `base`. Throws `DefinitionWriteError` (`VALIDATION_ERROR`, one issue per
 * problem with its file and field) when a changed document does not validate, or when the draft has errors the saved
 * definitions do not have (a prompt naming a model that does not exist, …); problems the saved files already have are
 * not the draft's and do not block it.
 */
export function draftSnapshot(base: RegistrySnapshot, changes: readonly SaveChange[]): RegistrySnapshot {
  const inputs = inputsOf(base);
  if (!inputs) throw new DefinitionWriteError("BAD_REQUEST", "The saved definitions are not available to build a draft from: reload the registry and try again.");
  const files = new Map<string, LoadedFile>(inputs.load.files.map((f) => [f.file, f]));
  const found = new Map<string, FoundFile>(inputs.load.found.map((f) => [f.file, f]));
  const issues: WriteIssue[] = [];
  const put = (f: LoadedFile) => {
    files.set(f.file, f);
    found.set(f.file, { kind: f.kind, file: f.file, absPath: f.absPath, baseName: f.baseName });
  };
  const drop = (file: string) => {
    files.delete(file);
    found.delete(file);
  };
  for (const change of changes) {
    if (change.op === "delete") {
      parseDefinitionPath(change.file);
      drop(change.file);
      continue;
    }
    if (change.op === "renameTool") {
      const { ext } = parseDefinitionPath(change.file);
      const tool = files.get(change.file);
      drop(change.file);
      if (tool) put({ ...tool, file: `tools/${change.to}${ext}`, baseName: change.to, value: { ...tool.value, name: change.to } });
      continue;
    }
    const name = typeof change.value.name === "string" ? change.value.name : "(new)";
    const file = change.file ?? `${change.kind}/${name}.ts`;
    for (const issue of validateDoc(change.kind, change.value)) issues.push({ file, path: issue.path, message: issue.message });
    const saved = change.file === null ? undefined : files.get(change.file);
    if (change.file !== null) {
      const { kind } = parseDefinitionPath(change.file);
      if (kind !== change.kind) throw new DefinitionWriteError("BAD_REQUEST", `${change.file} is not in the ${change.kind}/ folder`);
    }
    const unsaved: string[] = [];
    const value = runtimeValue(change.value, saved?.value, "", unsaved) as object;
    for (const path of unsaved) issues.push({ file, path, message: "holds code that has not been saved yet, so it cannot run in a draft: save it first" });
    const absPath = saved?.absPath ?? `${inputs.options.dir}/${file}`;
    const baseName = file.replace(/^.*\//, "").replace(/\.[^.]+$/, "");
    put({ kind: change.kind, file, absPath, baseName, value });
  }
  if (issues.length === 0) {
    const snapshot = buildSnapshot({ ...inputs.load, files: [...files.values()], found: [...found.values()] }, { ...inputs.options, startedAt: undefined });
    const before = new Set(base.diagnostics.filter((d) => d.severity === "error").map(diagnosticKey));
    for (const d of snapshot.diagnostics) {
      if (d.severity !== "error" || before.has(diagnosticKey(d))) continue;
      issues.push({ file: d.file, path: d.field, message: d.fix ? `${d.message} ${d.fix}` : d.message });
    }
    if (issues.length === 0) return snapshot;
  }
  const first = issues[0]!;
  throw new DefinitionWriteError("VALIDATION_ERROR", `The draft cannot run: ${first.file}${first.path ? ` ${first.path}` : ""}: ${first.message}`, issues);
}

/** How many built drafts a process keeps (least recently used first out); a dropped one is rebuilt on its next use. */
export const MAX_CACHED_DRAFTS = 16;
const built = new Map<string, { base: RegistrySnapshot; snapshot: RegistrySnapshot }>();

/**
 * `draftSnapshot` of a stored draft, built once per draft id and saved snapshot (the runtime and the chat views ask for
 * it often); at most `MAX_CACHED_DRAFTS` are kept. Throws as `draftSnapshot` does.
 */
export function cachedDraftSnapshot(base: RegistrySnapshot, draft: { id: string; changes: readonly unknown[] }): RegistrySnapshot {
  const hit = built.get(draft.id);
  if (hit && hit.base === base) {
    built.delete(draft.id);
    built.set(draft.id, hit);
    return hit.snapshot;
  }
  const snapshot = draftSnapshot(base, draft.changes as SaveChange[]);
  built.delete(draft.id);
  built.set(draft.id, { base, snapshot });
  while (built.size > MAX_CACHED_DRAFTS) built.delete(built.keys().next().value!);
  return snapshot;
}
