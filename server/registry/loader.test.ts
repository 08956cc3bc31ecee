import path from "node:path";
import { describe, expect, it } from "vitest";
import { isDefinitionFileName } from "./loader";
import { loadRegistry } from "./registry";
import { baseGraph, loadFiles, makeAgentsDir, projectRoot, removeDir, single, specModulePath } from "./test-fixtures";

describe("loading definition files", () => {
  it("loads every kind from its folder, in .ts, .mts, .js and .mjs files", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "tools/js_tool.js": `export default { description: "plain JS", execute: () => "ok" };`,
      "tools/mjs_tool.mjs": `export default { description: "module JS", execute: () => "ok" };`,
      "tools/mts_tool.mts": `import { defineTool } from "@studio/spec";\nexport default defineTool({ description: "mts", execute: () => "ok" });`,
      "hooks/trim.ts": `import { defineHook } from "@studio/spec";\nexport default defineHook({ id: "trim", hook: "filter_messages", execute: (_s, m) => m });`,
      "effects/remind.ts": `import { defineEffect } from "@studio/spec";\nexport default defineEffect({ name: "remind", execute: async () => {} });`,
    });
    expect(snap.diagnostics).toEqual([]);
    expect([...snap.tools.keys()].sort()).toEqual(["js_tool", "mjs_tool", "mts_tool", "t"]);
    expect([...snap.hooks.keys()]).toEqual(["trim"]);
    expect([...snap.effects.keys()]).toEqual(["remind"]);
    expect(snap.files.map((f) => f.file)).toContain("tools/mts_tool.mts");
  });

  it("reports a syntax error with file, line and column, and still loads the other files", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "tools/broken.ts": `import { defineTool } from "@studio/spec";\nexport default defineTool({\n  description: "x",\n  execute: () => ,\n});\n`,
    });
    const d = single(snap, "tools/broken.ts", "");
    expect(d).toMatchObject({ severity: "error", kind: "tools", line: 4, file: "tools/broken.ts" });
    expect(d.column).toBeGreaterThan(0);
    expect(d.message).toMatch(/failed to load \(line 4, column \d+\): syntax error/);
    expect(d.fix).toMatch(/tools\/broken\.ts:4:\d+/);
    expect(snap.agents.has("a")).toBe(true);
    expect(snap.tools.has("t")).toBe(true);
    expect(snap.diagnostics).toHaveLength(1);
  });

  it("reports a file that throws while it is evaluated, with the line of the throw", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "prompts/throws.ts": `const a = 1;\nif (a) throw new Error("boom: settings missing");\nexport default {};\n`,
    });
    const d = single(snap, "prompts/throws.ts", "");
    expect(d.message).toContain("boom: settings missing");
    expect(d.line).toBe(2);
    expect(d.fix).toMatch(/throws while prompts\/throws\.ts is evaluated at line 2/);
    expect(snap.prompts.has("p")).toBe(true);
  });

  it("reports a missing import without the require stack", async () => {
    const snap = await loadFiles({ ...baseGraph(), "tools/imports.ts": `import { x } from "./nowhere";\nexport default x;\n` });
    const d = single(snap, "tools/imports.ts", "");
    expect(d.message).toContain("Cannot find module './nowhere'");
    expect(d.message).not.toContain("Require stack");
    expect(d.fix).toMatch(/check the import path/);
  });

  it("tells how to export a file that has no default export", async () => {
    const snap = await loadFiles({ ...baseGraph(), "tools/named.ts": `export const tool = { description: "x", execute: () => "" };\n` });
    const d = single(snap, "tools/named.ts", "");
    expect(d.message).toBe("tools/named.ts has no default export, so it defines nothing.");
    expect(d.fix).toContain("export default defineTool({...})");
  });

  it("rejects a default export that is not an object", async () => {
    const snap = await loadFiles({ ...baseGraph(), "agents/fn.ts": `export default function () { return 1; }\n` });
    const d = single(snap, "agents/fn.ts", "");
    expect(d.message).toContain("the default export is a function");
    expect(d.fix).toContain("export default defineAgent({...})");
  });

  it("reports a missing AGENTS_DIR instead of failing", async () => {
    const dir = path.join(projectRoot, ".tmp", "no-such-agents-dir");
    const snap = await loadRegistry({ dir, projectRoot, specModulePath });
    expect(snap.diagnostics).toHaveLength(1);
    expect(snap.diagnostics[0]).toMatchObject({ kind: "registry", file: "", field: "", severity: "error" });
    expect(snap.diagnostics[0]!.message).toContain(`AGENTS_DIR is missing: the folder ${dir} does not exist`);
    expect(snap.diagnostics[0]!.fix).toContain("set AGENTS_DIR");
    expect(snap.agents.size).toBe(0);
  });

  it("ignores tests, declaration files, hidden and underscore files", () => {
    expect(isDefinitionFileName("word_count.ts")).toBe(true);
    expect(isDefinitionFileName("word_count.mjs")).toBe(true);
    expect(isDefinitionFileName("word_count.test.ts")).toBe(false);
    expect(isDefinitionFileName("types.d.ts")).toBe(false);
    expect(isDefinitionFileName(".draft.ts")).toBe(false);
    expect(isDefinitionFileName("_shared.ts")).toBe(false);
    expect(isDefinitionFileName("README.md")).toBe(false);
    expect(isDefinitionFileName("data.json")).toBe(false);
  });

  it("also loads through the @studio/spec alias alone (a fresh spec module per file)", async () => {
    const dir = await makeAgentsDir(baseGraph());
    try {
      const snap = await loadRegistry({ dir, projectRoot, specModulePath, shareSpecInstance: false });
      expect(snap.diagnostics).toEqual([]);
      expect([...snap.agents.keys()]).toEqual(["a"]);
    } finally {
      await removeDir(dir);
    }
  });

  it("lets a definition file import a helper module next to it", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "prompts/_text.ts": `export const TEXT = "shared words";\n`,
      "prompts/q.ts": `import { definePrompt } from "@studio/spec";\nimport { TEXT } from "./_text";\nexport default definePrompt({ name: "q", model: "m", prompt: TEXT });\n`,
    });
    expect(snap.diagnostics).toEqual([]);
    expect(snap.prompts.get("q")?.definition.prompt).toBe("shared words");
  });
});
