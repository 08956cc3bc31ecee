import fs from "node:fs/promises";
import path from "node:path";
import {
  EVALS_FOLDER,
  evalCaseSchema,
  evalDefinitionSchema,
  formatZodIssues,
  scorerName,
  type ParsedEvalCase,
  type ParsedEvalDefinition,
} from "@/server/spec";
import type { Diagnostic } from "@/shared/diagnostic";
import type { DiagnosticSink } from "./diagnostics";
import { readCaseFile } from "./eval-case-files";
import { isDefinitionFileName, loadErrorDiagnostic } from "./loader";
import type { DefinitionImporter } from "./module-import";
import { didYouMean, listNames } from "./schema-fields";
import { fixFromIssue } from "./validate";

/** A file under `evals/` whose module loaded, with the cases of the file it names already read. */
export interface LoadedEvalFile {
  file: string;
  absPath: string;
  value: unknown;
  /** The cases file's rows when `cases` names one that could be read (`line` is 1-based). */
  caseRows?: { file: string; rows: { line: number; value: unknown }[] };
  /** True when a case names an attachment file that is missing (reported; the eval is left out). */
  missingFiles?: boolean;
}

/** A case after validation, with a stable id (`id`, else its 1-based position). */
export type EvalCaseRecord = ParsedEvalCase & { id: string; input: string };

/** An eval whose definition, cases and references are valid. */
export interface EvalRecord {
  name: string;
  file: string;
  absPath: string;
  definition: ParsedEvalDefinition;
  cases: EvalCaseRecord[];
  /** The cases file (relative to AGENTS_DIR) when the cases come from one. */
  casesFile?: string;
  scorerNames: string[];
}

/** Loads every file of `evals/`, and the `.jsonl`/`.csv` file each one's `cases` names. */
export async function loadEvalFiles(dir: string, importDefault: DefinitionImporter, diagnostics: Diagnostic[]): Promise<LoadedEvalFile[]> {
  const entries = await fs.readdir(path.join(dir, EVALS_FOLDER), { withFileTypes: true }).catch(() => []);
  const names = entries.filter((e) => e.isFile() && isDefinitionFileName(e.name)).map((e) => e.name).sort();
  const out: LoadedEvalFile[] = [];
  for (const name of names) {
    const file = `${EVALS_FOLDER}/${name}`;
    const absPath = path.join(dir, EVALS_FOLDER, name);
    const loaded = await importDefault(absPath);
    if (!loaded.ok) {
      diagnostics.push(loadErrorDiagnostic("evals", file, absPath, loaded.error));
      continue;
    }
    const entry: LoadedEvalFile = { file, absPath, value: loaded.value };
    const cases = (loaded.value as { cases?: unknown } | undefined)?.cases;
    if (typeof cases === "string" && /\.(jsonl|csv)$/i.test(cases)) {
      const read = await readCaseFile(dir, path.dirname(absPath), cases, file);
      if (read.ok) entry.caseRows = { file: read.file, rows: read.rows };
      else diagnostics.push(read.diagnostic);
    }
    const missing = await missingAttachments(dir, file, absPath, entry);
    if (missing.length > 0) {
      diagnostics.push(...missing);
      entry.missingFiles = true;
    }
    out.push(entry);
  }
  return out;
}

/** Case attachments given as `{ file }` must exist next to the eval (inside AGENTS_DIR). */
async function missingAttachments(dir: string, file: string, absPath: string, entry: LoadedEvalFile): Promise<Diagnostic[]> {
  const inline = (entry.value as { cases?: unknown } | undefined)?.cases;
  const rows = entry.caseRows?.rows ?? (Array.isArray(inline) ? inline.map((value, i) => ({ line: i, value })) : []);
  const out: Diagnostic[] = [];
  for (const [i, row] of rows.entries()) {
    const list = (row.value as { attachments?: unknown } | null)?.attachments;
    if (!Array.isArray(list)) continue;
    for (const [j, a] of list.entries()) {
      const named = (a as { file?: unknown } | null)?.file;
      if (typeof named !== "string") continue;
      const abs = path.resolve(path.dirname(absPath), named);
      const rel = path.relative(dir, abs).split(path.sep).join("/");
      const ok = !rel.startsWith("..") && (await fs.stat(abs).then((s) => s.isFile(), () => false));
      if (ok) continue;
      const where = entry.caseRows ? `${entry.caseRows.file} line ${row.line}` : `cases.${i}`;
      out.push({
        severity: "error",
        kind: "evals",
        file,
        field: entry.caseRows ? "cases" : `cases.${i}.attachments.${j}.file`,
        message: `The attachment "${named}" of a case (${where}) ${rel.startsWith("..") ? "is outside AGENTS_DIR" : `does not exist (looked for ${rel})`}.`,
        fix: `Put the file next to ${file} and name it relatively (e.g. "./photo.png"), or remove the attachment.`,
      });
    }
  }
  return out;
}

/** What an eval refers to, from the linked registry. */
export interface EvalReferences {
  agents: ReadonlySet<string>;
  models: ReadonlySet<string>;
}

/** Validates the loaded evals: schema, cases, referenced agent and judge models, thresholds naming scorers. */
export function validateEvalFiles(files: readonly LoadedEvalFile[], refs: EvalReferences, sink: DiagnosticSink): Map<string, EvalRecord> {
  const out = new Map<string, EvalRecord>();
  for (const f of files) {
    const raw = f.value;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      sink.error({ kind: "evals", file: f.file, field: "", message: `${f.file} has no eval definition as its default export.`, fix: "Export the eval: `export default defineEval({ name, agent, cases, scorers })`." });
      continue;
    }
    const rawName = (raw as { name?: unknown }).name;
    const base = { kind: "evals" as const, file: f.file, ...(typeof rawName === "string" && rawName ? { name: rawName } : {}) };
    const parsed = evalDefinitionSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of formatZodIssues(parsed.error.issues, raw))
        sink.error({ ...base, field: issue.path, message: `Invalid eval ${base.name ? `"${base.name}"` : "definition"}${issue.path ? ` at \`${issue.path}\`` : ""}: ${issue.message}.`.replace(/\.\.$/, "."), fix: fixFromIssue(issue, f.file) });
      continue;
    }
    const def = parsed.data;
    let ok = true;
    const error = (d: Omit<Diagnostic, "severity" | "kind" | "file">) => {
      ok = false;
      sink.error({ ...base, ...d });
    };
    if (!refs.agents.has(def.agent))
      error({ field: "agent", message: `Eval "${def.name}" runs agent "${def.agent}", which no agent file defines.${didYouMean(def.agent, refs.agents)}`, fix: `Set \`agent\` in ${f.file} to a defined agent (${listNames([...refs.agents])}).` });
    def.scorers.forEach((s, i) => {
      if (s.type === "judge" && !refs.models.has(s.model))
        error({ field: `scorers.${i}.model`, message: `The judge of eval "${def.name}" uses model "${s.model}", which no model file defines.${didYouMean(s.model, refs.models)}`, fix: `Set scorers.${i}.model in ${f.file} to a defined model (${listNames([...refs.models])}).` });
    });
    const names = def.scorers.map(scorerName);
    names.forEach((n, i) => {
      if (names.indexOf(n) !== i) error({ field: `scorers.${i}.name`, message: `Two scorers of eval "${def.name}" are named "${n}", so their scores and thresholds would mix.`, fix: `Give scorers.${i} its own \`name\` in ${f.file}.` });
    });
    for (const key of Object.keys(def.thresholds ?? {}))
      if (key !== "passRate" && !names.includes(key))
        error({ field: `thresholds.${key}`, message: `Threshold "${key}" names no scorer of eval "${def.name}".${didYouMean(key, names)}`, fix: `Use a scorer name (${listNames(names)}) or "passRate" in ${f.file}.` });
    const cases = validateCases(def, f, error);
    if (!cases) continue;
    const earlier = out.get(def.name);
    if (earlier) {
      error({ field: "name", message: `Duplicate eval name "${def.name}": defined in ${earlier.file} and ${f.file}. Only ${earlier.file} is used.`, fix: `Give each eval a unique name: change it in ${f.file}.` });
      continue;
    }
    if (!ok || f.missingFiles) continue;
    out.set(def.name, { name: def.name, file: f.file, absPath: f.absPath, definition: def, cases, ...(f.caseRows ? { casesFile: f.caseRows.file } : {}), scorerNames: names });
  }
  return out;
}

function validateCases(def: ParsedEvalDefinition, f: LoadedEvalFile, error: (d: Omit<Diagnostic, "severity" | "kind" | "file">) => void): EvalCaseRecord[] | null {
  const rows = typeof def.cases === "string" ? f.caseRows?.rows : def.cases.map((value, i) => ({ line: i, value }));
  if (!rows) return null; // the cases file could not be read: already reported
  const fromFile = typeof def.cases === "string" ? f.caseRows!.file : null;
  if (rows.length === 0) {
    error({ field: "cases", message: `The cases file ${fromFile} of eval "${def.name}" holds no case.`, fix: `Add one case per line to ${fromFile}, e.g. {"input": "Hello", "expected": "Hi"}.` });
    return null;
  }
  const out: EvalCaseRecord[] = [];
  const ids = new Set<string>();
  let ok = true;
  for (const [i, row] of rows.entries()) {
    const where = fromFile ? `${fromFile} line ${row.line}` : `cases.${i}`;
    const parsed = evalCaseSchema.safeParse(row.value);
    if (!parsed.success) {
      ok = false;
      for (const issue of formatZodIssues(parsed.error.issues, row.value))
        error({ field: fromFile ? "cases" : `cases.${i}${issue.path ? `.${issue.path}` : ""}`, message: `Invalid case (${where})${issue.path ? ` at \`${issue.path}\`` : ""}: ${issue.message}.`.replace(/\.\.$/, "."), fix: fromFile ? `Fix line ${row.line} of ${fromFile}: ${issue.message}.` : fixFromIssue({ ...issue, path: `cases.${i}${issue.path ? `.${issue.path}` : ""}` }, f.file) });
      continue;
    }
    const c = parsed.data;
    const id = c.id ?? String(i + 1);
    if (ids.has(id)) {
      ok = false;
      error({ field: fromFile ? "cases" : `cases.${i}.id`, message: `Two cases of eval "${def.name}" have the id "${id}" (${where}).`, fix: `Give each case its own id${fromFile ? ` in ${fromFile}` : ` in ${f.file}`}.` });
      continue;
    }
    ids.add(id);
    out.push({ ...c, id, input: c.input ?? c.messages!.at(-1)!.content });
  }
  return ok ? out : null;
}
