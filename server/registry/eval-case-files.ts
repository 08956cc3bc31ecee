import fs from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import type { Diagnostic } from "@/shared/diagnostic";

type Row = { line: number; value: unknown };
export type CaseFileRead = { ok: true; file: string; rows: Row[] } | { ok: false; diagnostic: Diagnostic };

/**
 * Reads the cases file an eval names (relative to the eval's folder, inside AGENTS_DIR): JSONL (one case object per
 * line, blank lines skipped) or CSV with a header row (`id`, `input`, `expected`, `variables.NAME` columns; any other
 * column goes to `metadata`). Problems become diagnostics naming the eval file, the cases file and the line.
 */
export async function readCaseFile(agentsDir: string, evalDir: string, named: string, evalFile: string): Promise<CaseFileRead> {
  const abs = path.resolve(evalDir, named);
  const rel = path.relative(agentsDir, abs).split(path.sep).join("/");
  const fail = (message: string, fix: string): CaseFileRead => ({ ok: false, diagnostic: { severity: "error", kind: "evals", file: evalFile, field: "cases", message, fix } });
  if (rel.startsWith("..") || path.isAbsolute(rel))
    return fail(`The cases file "${named}" of ${evalFile} is outside AGENTS_DIR.`, `Put the cases file next to ${evalFile} and name it relatively, e.g. cases: "./cases.jsonl".`);
  let text: string;
  try {
    text = await fs.readFile(abs, "utf8");
  } catch {
    return fail(`The cases file ${rel} named by ${evalFile} does not exist.`, `Create ${rel} (one JSON case per line, or a CSV with an "input" column) or correct \`cases\` in ${evalFile}.`);
  }
  if (/\.jsonl$/i.test(abs)) {
    const rows: Row[] = [];
    const lines = text.split(/\r?\n/);
    for (const [i, line] of lines.entries()) {
      if (!line.trim()) continue;
      try {
        rows.push({ line: i + 1, value: JSON.parse(line) });
      } catch (error) {
        return fail(`Line ${i + 1} of ${rel} is not JSON: ${(error as Error).message}.`, `Write one JSON object per line in ${rel}, e.g. {"input": "Hello", "expected": "Hi"}.`);
      }
    }
    return { ok: true, file: rel, rows };
  }
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, info: true, bom: true }) as typeof records;
  } catch (error) {
    return fail(`${rel} is not valid CSV: ${(error as Error).message}.`, `Fix ${rel}: a header row (id, input, expected, variables.NAME…) then one case per row; quote values that hold commas.`);
  }
  return { ok: true, file: rel, rows: records.map(({ record, info }) => ({ line: info.lines, value: csvCase(record) })) };
}

/** A CSV row as a case: empty cells are left out. */
function csvCase(record: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const variables: Record<string, string> = {};
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === "") continue;
    if (key === "id" || key === "input" || key === "expected") out[key] = value;
    else if (key.startsWith("variables.")) variables[key.slice("variables.".length)] = value;
    else metadata[key] = value;
  }
  if (Object.keys(variables).length) out.variables = variables;
  if (Object.keys(metadata).length) out.metadata = metadata;
  return out;
}
