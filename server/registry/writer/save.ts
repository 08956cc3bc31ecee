/**
 * Saving editor changes to the definition files: validates every change first (all or nothing), then writes only
 * the files whose text changed, each atomically. Existing files are edited surgically (see `patch.ts`) and
 * formatted with prettier when they were prettier-formatted before; new files are generated whole. A definition
 * renamed from a file named after it (`prompts/<name>.ts`) moves to the file of its new name.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { IDENTIFIER_PATTERN } from "@/server/spec";
import { validateDoc } from "@/shared/editor/doc-validate";
import type { FilePreview, SaveChange } from "@/shared/editor/save-change";
import { DefinitionWriteError, READONLY_MESSAGE, type WriteIssue } from "./errors";
import { contentHash, Formatter, readText, writeAtomic } from "./files";
import { parseDefinitionPath } from "./definition-path";
import { patchDefinitionSource } from "./patch";
import { newDefinitionFile } from "./serialize";
import { readDefinitionSource } from "./source";

export interface SaveOptions {
  /** Absolute AGENTS_DIR. */
  dir: string;
  /** Folder holding `.prettierrc.json`. */
  projectRoot: string;
  readonly: boolean;
  /** Check and compute everything, write nothing: the result's `preview` says what Save would write. */
  dryRun?: boolean;
}


export interface SaveResult {
  /** Files whose content was written (new, changed or moved), relative to AGENTS_DIR. */
  written: string[];
  renamed: Array<{ from: string; to: string }>;
  deleted: string[];
  /** Files of changes that turned out identical to the file. */
  unchanged: string[];
  /** Dry runs only. */
  preview?: FilePreview[];
}

interface Planned {
  /** Target file (relative). */
  file: string;
  /** New text, or null to delete `file`. */
  text: string | null;
  /** The file this one replaces (a rename). */
  from?: string;
  /** The text it replaces (null: a new file). */
  before: string | null;
}

const formatters = new Map<string, Formatter>();
function formatterFor(projectRoot: string): Formatter {
  let f = formatters.get(projectRoot);
  if (!f) formatters.set(projectRoot, (f = new Formatter(projectRoot)));
  return f;
}

/** Applies `changes` to the files under `options.dir`. Throws `DefinitionWriteError` and writes nothing on any problem. */
export async function saveDefinitions(changes: readonly SaveChange[], options: SaveOptions): Promise<SaveResult> {
  if (options.readonly) throw new DefinitionWriteError("FORBIDDEN", READONLY_MESSAGE);
  const formatter = formatterFor(options.projectRoot);
  const abs = (file: string) => path.join(options.dir, ...file.split("/"));
  const issues: WriteIssue[] = [];
  const conflicts: string[] = [];
  const planned: Planned[] = [];
  const unchanged: string[] = [];
  const leaving = new Set<string>(); // files deleted or moved away by this save

  const readChecked = async (file: string, hash: string | null): Promise<string | undefined> => {
    const text = await readText(abs(file));
    if (text === undefined) conflicts.push(`${file} no longer exists on disk`);
    else if (hash !== null && contentHash(text) !== hash) conflicts.push(`${file} changed on disk since the editor read it`);
    return text;
  };
  const finish = async (original: string | null, text: string) =>
    original === null || (await formatter.isFormatted(original)) ? formatter.format(text) : text;

  for (const change of changes) {
    if (change.op === "delete") {
      parseDefinitionPath(change.file);
      const original = await readChecked(change.file, change.hash);
      if (original === undefined) continue;
      planned.push({ file: change.file, text: null, before: original });
      leaving.add(change.file);
      continue;
    }
    if (change.op === "renameTool") {
      const { kind, ext } = parseDefinitionPath(change.file);
      if (kind !== "tools") throw new DefinitionWriteError("BAD_REQUEST", `${change.file} is not a tool file`);
      if (!IDENTIFIER_PATTERN.test(change.to)) {
        issues.push({ file: change.file, path: "name", message: `tool name "${change.to}" is not valid: use letters, digits, "_" and "-", starting with a letter` });
        continue;
      }
      const original = await readChecked(change.file, change.hash);
      if (original === undefined) continue;
      let text = original;
      const read = readDefinitionSource(original);
      if (read.ok && typeof read.value.name === "string") {
        const patched = patchDefinitionSource(original, { ...read.value, name: change.to }, "tools");
        if (patched.ok && patched.changed) text = await finish(original, patched.text);
      }
      planned.push({ file: `tools/${change.to}${ext}`, text, from: change.file, before: original });
      leaving.add(change.file);
      continue;
    }
    const label = change.file ?? `${change.kind}/${String(change.value.name ?? "(new)")}.ts`;
    for (const issue of validateDoc(change.kind, change.value)) issues.push({ file: label, path: issue.path, message: issue.message });
    const name = change.value.name;
    if (typeof name !== "string") continue;
    if (change.file === null) {
      planned.push({ file: `${change.kind}/${name}.ts`, text: await finish(null, newDefinitionFile(change.kind, change.value)), before: null });
      continue;
    }
    const { kind, base, ext } = parseDefinitionPath(change.file);
    if (kind !== change.kind) throw new DefinitionWriteError("BAD_REQUEST", `${change.file} is not in the ${change.kind}/ folder`);
    const original = await readChecked(change.file, change.hash);
    if (original === undefined) continue;
    const patched = patchDefinitionSource(original, change.value, change.kind);
    if (!patched.ok) {
      issues.push({ file: change.file, path: "", message: `The editor cannot write this file: ${patched.reason}.` });
      continue;
    }
    const read = readDefinitionSource(original);
    const oldName = read.ok ? read.value.name : undefined;
    const moves = name !== oldName && base === oldName;
    const text = patched.changed ? await finish(original, patched.text) : original;
    if (!moves && !patched.changed) {
      unchanged.push(change.file);
      continue;
    }
    if (moves) {
      planned.push({ file: `${kind}/${name}${ext}`, text, from: change.file, before: original });
      leaving.add(change.file);
    } else planned.push({ file: change.file, text, before: original });
  }

  // New targets must not overwrite a file that stays, nor each other.
  const targets = new Set<string>();
  for (const p of planned) {
    if (p.text === null) continue;
    const isNewPath = p.from !== undefined || !changes.some((c) => c.op === "write" && c.file === p.file);
    if (targets.has(p.file)) conflicts.push(`two changes would write ${p.file}`);
    targets.add(p.file);
    if (isNewPath && !leaving.has(p.file) && (await readText(abs(p.file))) !== undefined) {
      conflicts.push(`${p.file} already exists: choose another name`);
    }
  }
  if (issues.length > 0) {
    const first = issues[0]!;
    throw new DefinitionWriteError("VALIDATION_ERROR", `${first.file}${first.path ? ` ${first.path}` : ""}: ${first.message}`, issues);
  }
  if (conflicts.length > 0) throw new DefinitionWriteError("CONFLICT", `Nothing was saved: ${conflicts.join("; ")}.`);

  const result: SaveResult = { written: [], renamed: [], deleted: [], unchanged };
  if (options.dryRun) {
    result.preview = planned.map((p) => ({ file: p.file, ...(p.from ? { from: p.from } : {}), before: p.before, after: p.text }));
    return result;
  }
  for (const p of planned) {
    if (p.text === null) continue;
    await writeAtomic(abs(p.file), p.text);
    result.written.push(p.file);
    if (p.from) result.renamed.push({ from: p.from, to: p.file });
  }
  for (const p of planned) {
    const gone = p.text === null ? p.file : p.from;
    if (gone === undefined || targets.has(gone)) continue;
    await fs.rm(abs(gone), { force: true });
    if (p.text === null) result.deleted.push(gone);
  }
  return result;
}
