import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRegistry } from "./registry";
import { baseGraph, diagnosticsOf, loadFiles, makeAgentsDir, projectRoot, removeDir, single, specModulePath, writeFiles } from "./test-fixtures";
import { createRegistryStore } from "./watcher";

const evalFile = (body: string) => `import { defineEval, scorers } from "@studio/spec";\nimport { z } from "zod";\nexport default defineEval(${body});\n`;
const valid = (extra = "") =>
  evalFile(`{ name: "basics", agent: "a", cases: [{ input: "hi", expected: "hello" }, { id: "two", messages: [{ role: "user", content: "count" }] }], scorers: [scorers.contains(), scorers.toolCalled("t", { text: "x" })]${extra} }`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe("evals/*.ts", () => {
  it("loads a valid eval with inline cases, ids defaulting to their position", async () => {
    const snap = await loadFiles({ ...baseGraph(), "evals/basics.ts": valid(`, thresholds: { passRate: 0.5, contains: 1 }`) });
    expect(snap.diagnostics).toEqual([]);
    const ev = snap.evals.get("basics")!;
    expect(ev.file).toBe("evals/basics.ts");
    expect(ev.cases.map((c) => [c.id, c.input])).toEqual([["1", "hi"], ["two", "count"]]);
    expect(ev.scorerNames).toEqual(["contains", "tool_called:t"]);
  });

  it("reads cases from a JSONL or a CSV file next to the eval", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "evals/j.ts": evalFile(`{ name: "j", agent: "a", cases: "./j.jsonl", scorers: [scorers.exact()] }`),
      "evals/j.jsonl": `{"id": "a", "input": "one", "expected": "1"}\n\n{"input": "two", "variables": {"TONE": "dry"}}\n`,
      "evals/c.ts": evalFile(`{ name: "c", agent: "a", cases: "./c.csv", scorers: [scorers.exact()] }`),
      "evals/c.csv": `id,input,expected,variables.TONE,topic\nx,"Hello, you",hi,warm,greeting\ny,Bye,,,\n`,
    });
    expect(snap.diagnostics).toEqual([]);
    expect(snap.evals.get("j")!.cases).toEqual([
      { id: "a", input: "one", expected: "1" },
      { id: "2", input: "two", variables: { TONE: "dry" } },
    ]);
    expect(snap.evals.get("j")!.casesFile).toBe("evals/j.jsonl");
    expect(snap.evals.get("c")!.cases).toEqual([
      { id: "x", input: "Hello, you", expected: "hi", variables: { TONE: "warm" }, metadata: { topic: "greeting" } },
      { id: "y", input: "Bye" },
    ]);
  });

  it("names the file, the field and the fix for bad definitions", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "evals/bad_agent.ts": evalFile(`{ name: "bad_agent", agent: "aa", cases: [{ input: "x" }], scorers: [scorers.judge({ model: "nope", rubric: "r" })], thresholds: { judg: 1 } }`),
      "evals/bad_case.ts": evalFile(`{ name: "bad_case", agent: "a", cases: [{ expected: "x" }], scorers: [scorers.contains("x")] }`),
      "evals/bad_scorer.ts": evalFile(`{ name: "bad_scorer", agent: "a", cases: [{ input: "x" }], scorers: [{ type: "contain", value: "x" }] }`),
      "evals/bad_regex.ts": evalFile(`{ name: "bad_regex", agent: "a", cases: [{ input: "x" }], scorers: [scorers.regex("(")] }`),
      "evals/missing.ts": evalFile(`{ name: "missing", agent: "a", cases: "./nowhere.jsonl", scorers: [scorers.contains("x")] }`),
      "evals/bad_line.ts": evalFile(`{ name: "bad_line", agent: "a", cases: "./bad_line.jsonl", scorers: [scorers.contains("x")] }`),
      "evals/bad_line.jsonl": `{"input": "ok"}\n{"input": 3}\n`,
    });
    expect(single(snap, "evals/bad_agent.ts", "agent")).toMatchObject({ kind: "evals", message: expect.stringContaining('"aa"'), fix: expect.stringContaining("`a`") });
    expect(single(snap, "evals/bad_agent.ts", "scorers.0.model").message).toContain('"nope"');
    expect(single(snap, "evals/bad_agent.ts", "thresholds.judg").message).toContain("Did you mean `judge`?");
    expect(single(snap, "evals/bad_case.ts", "cases.0.input").fix).toContain("evals/bad_case.ts");
    expect(diagnosticsOf(snap, "evals/bad_scorer.ts")[0]!.message).toContain("unknown scorer");
    expect(single(snap, "evals/bad_regex.ts", "scorers.0.pattern").message).toContain("not a valid regular expression");
    expect(single(snap, "evals/missing.ts", "cases")).toMatchObject({ message: expect.stringContaining("evals/nowhere.jsonl named by evals/missing.ts does not exist"), fix: expect.stringContaining("Create evals/nowhere.jsonl") });
    expect(single(snap, "evals/bad_line.ts", "cases")).toMatchObject({ message: expect.stringContaining("evals/bad_line.jsonl line 2"), fix: expect.stringContaining("Fix line 2 of evals/bad_line.jsonl") });
    expect(snap.evals.size).toBe(0);
  });

  it("case attachments name files next to the eval; a missing one is reported and leaves the eval out", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "evals/files.ts": evalFile(`{ name: "files", agent: "a", cases: [{ input: "see", attachments: [{ file: "./note.txt" }, { name: "x.txt", mimeType: "text/plain", data: "eA==" }] }], scorers: [scorers.contains("x")] }`),
      "evals/note.txt": "one two three",
      "evals/gone.ts": evalFile(`{ name: "gone", agent: "a", cases: [{ input: "see", attachments: [{ file: "./nowhere.png" }] }], scorers: [scorers.contains("x")] }`),
    });
    expect(snap.evals.get("files")!.cases[0]!.attachments).toHaveLength(2);
    expect(single(snap, "evals/gone.ts", "cases.0.attachments.0.file")).toMatchObject({ message: expect.stringContaining("looked for evals/nowhere.png"), fix: expect.stringContaining("next to evals/gone.ts") });
    expect(snap.evals.has("gone")).toBe(false);
  });

  it("reloads when the eval or its cases file changes", async () => {
    const dir = await makeAgentsDir({ ...baseGraph(), "evals/j.ts": evalFile(`{ name: "j", agent: "a", cases: "./j.jsonl", scorers: [scorers.contains("x")] }`), "evals/j.jsonl": `{"input": "one"}\n` });
    cleanups.push(() => removeDir(dir));
    const store = await createRegistryStore({ dir, projectRoot, specModulePath, watch: true, debounceMs: 50 });
    cleanups.push(() => store.close());
    expect(store.current().evals.get("j")!.cases).toHaveLength(1);
    const changed = new Promise((resolve) => store.subscribe((s) => s.evals.get("j")?.cases.length === 2 && resolve(s)));
    await writeFiles(dir, { "evals/j.jsonl": `{"input": "one"}\n{"input": "two"}\n` });
    await changed;
    expect(store.current().evals.get("j")!.cases.map((c) => c.input)).toEqual(["one", "two"]);
  });

  it("the shipped example eval of writing_assistant is valid", async () => {
    const snap = await loadRegistry({ dir: path.join(projectRoot, "agents"), projectRoot, specModulePath });
    expect(snap.diagnostics.filter((d) => d.kind === "evals")).toEqual([]);
    const ev = snap.evals.get("writing_assistant_basics")!;
    expect(ev.definition.agent).toBe("writing_assistant");
    expect(ev.cases.length).toBeGreaterThan(1);
  });
});
