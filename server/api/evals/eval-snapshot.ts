import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { agentGraphFiles, type EvalRecord, type RegistrySnapshot } from "@/server/registry";
import { scorerName, type ParsedScorer } from "@/server/spec";

/** A scorer as stored with an experiment: JSON only (a zod schema as JSON Schema, a custom function as its source). */
function scorerJson(s: ParsedScorer): Record<string, unknown> {
  const name = scorerName(s);
  if (s.type === "custom") return { type: s.type, name, source: String(s.score) };
  if (s.type === "json_schema") {
    const schema = s.schema as { safeParse?: unknown };
    return { type: s.type, name, schema: typeof schema.safeParse === "function" ? z.toJSONSchema(s.schema as z.ZodType) : s.schema };
  }
  return { ...s, name };
}

/** The eval as it is run, as JSON: stored with the experiment so two experiments can be compared later. */
export function evalSnapshot(ev: EvalRecord): Record<string, unknown> {
  const d = ev.definition;
  return {
    name: d.name,
    agent: d.agent,
    ...(d.description ? { description: d.description } : {}),
    file: ev.file,
    ...(ev.casesFile ? { casesFile: ev.casesFile } : {}),
    scorers: d.scorers.map(scorerJson),
    thresholds: d.thresholds ?? {},
    cases: ev.cases.map((c) => ({ ...c })),
  };
}

/** The source text of the eval file, its cases file and every file of the agent's graph, by path under AGENTS_DIR. */
export async function evalSources(snapshot: RegistrySnapshot, ev: EvalRecord): Promise<Record<string, string>> {
  const files = [ev.file, ...(ev.casesFile ? [ev.casesFile] : []), ...[...agentGraphFiles(snapshot, ev.definition.agent)].sort()];
  const out: Record<string, string> = {};
  for (const file of files) {
    const text = await fs.readFile(path.join(snapshot.dir, file), "utf8").catch(() => null);
    if (text !== null) out[file] = text;
  }
  return out;
}
