/**
 * bench/RESULTS.md, written by several benches. Each writer owns sections delimited by markers:
 *
 *   <!-- begin:NAME -->
 *   …
 *   <!-- end:NAME -->
 *
 * and rewrites only its own: `writeSections` replaces the named sections and keeps every other marked section as it
 * was (another bench's, or a group of `npm run bench` that this run did not run), in the order they were. The title
 * and the paragraph under it are not a section; the first writer puts them in. Text outside the markers is dropped
 * (a file from before the markers: its body is kept as the section `legacyName`).
 */
import fs from "node:fs";
import path from "node:path";
import type { Row } from "./harness";

export const RESULTS_FILE = path.join(import.meta.dirname, "RESULTS.md");

/** The title and paragraph above the sections (whichever bench writes the file first puts them in). */
export const RESULTS_HEADER = [
  "# Benchmark results",
  "",
  "Written by `npm run bench` (and other benches, each in its own marked section). The scripted OpenAI-compatible server",
  "(scripts/fake-llm, its own process) answers on loopback with no delay, so the figures are the framework's cost.",
  "Medians and p95 are over repeated runs (or over steps/events where the measure says so).",
].join("\n");

const SECTION = /<!-- begin:([\w-]+) -->\n([\s\S]*?)<!-- end:\1 -->\n?/g;

/** The marked sections of `text`, in order. */
export function readSections(text: string): { name: string; body: string }[] {
  return [...text.matchAll(SECTION)].map((m) => ({ name: m[1]!, body: m[2]! }));
}

/** `text` with `sections` replaced or added (new ones after the rest); other sections as they were. */
export function mergeSections(text: string, header: string, sections: { name: string; body: string }[], legacyName?: string): string {
  let existing = readSections(text);
  if (existing.length === 0 && legacyName && text.includes("\n## ")) {
    existing = [{ name: legacyName, body: text.slice(text.indexOf("\n## ") + 1) }];
  }
  const byName = new Map(sections.map((s) => [s.name, s]));
  const out = existing.map((s) => byName.get(s.name) ?? s);
  for (const s of sections) if (!existing.some((e) => e.name === s.name)) out.push(s);
  const body = out.map((s) => `<!-- begin:${s.name} -->\n${s.body.endsWith("\n") ? s.body : `${s.body}\n`}<!-- end:${s.name} -->\n`);
  return [header.trimEnd(), "", ...body].join("\n");
}

export function writeSections(header: string, sections: { name: string; body: string }[], legacyName?: string, file = RESULTS_FILE): void {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  fs.writeFileSync(file, mergeSections(text, header, sections, legacyName));
}

/** A Markdown table of result rows. */
export function table(rows: Row[]): string[] {
  const head = ["scenario", "measure", "median", "p95", "unit", "note"];
  const cells = rows.map((r) => [r.scenario, r.metric, String(r.median), String(r.p95), r.unit, r.note ?? ""]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => (i >= 2 && i <= 3 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join(" | ")} |`;
  return [line(head), `|${widths.map((w, i) => (i >= 2 && i <= 3 ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`, ...cells.map(line)];
}
