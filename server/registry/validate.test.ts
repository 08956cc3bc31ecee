import { describe, expect, it } from "vitest";
import { agent, baseGraph, def, diagnosticsOf, loadFiles, model, prompt, single, tool } from "./test-fixtures";

describe("validating definition shapes", () => {
  it("reports a missing name with its field and what to add, and leaves the definition out", async () => {
    const snap = await loadFiles({ ...baseGraph(), "agents/nameless.ts": def("defineAgent", `{ sideA: { prompt: "p" } } as never`) });
    const d = single(snap, "agents/nameless.ts", "name");
    expect(d).toMatchObject({ severity: "error", kind: "agents" });
    expect(d.message).toBe("Invalid agent definition at `name`: required: add `name: '<name>'`.");
    expect(d.fix).toBe("Add `name: '<name>'` to the definition in agents/nameless.ts.");
    expect(snap.agents.size).toBe(1);
  });

  it("reports a wrong type at its dotted field path", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "agents/b.ts": agent("b", `sideA: { prompt: "p", maxSteps: "ten" as never }`),
    });
    const d = single(snap, "agents/b.ts", "sideA.maxSteps");
    expect(d.name).toBe("b");
    expect(d.message).toBe('Invalid agent "b" at `sideA.maxSteps`: maxSteps must be a number.');
    expect(d.fix).toContain("agents/b.ts");
    expect(snap.agents.has("b")).toBe(false);
  });

  it("reports a missing required nested field (a side without prompt)", async () => {
    const snap = await loadFiles({ ...baseGraph(), "agents/b.ts": agent("b", `sideA: { label: "x" } as never`) });
    const d = single(snap, "agents/b.ts", "sideA.prompt");
    expect(d.fix).toBe("Add `prompt: '<prompt name>'` to `sideA` in agents/b.ts.");
  });

  it("names both files of a duplicate name and keeps the first", async () => {
    const snap = await loadFiles({ ...baseGraph(), "prompts/p_copy.ts": prompt("p") });
    for (const file of ["prompts/p.ts", "prompts/p_copy.ts"]) {
      const d = single(snap, file, "name");
      expect(d.severity).toBe("error");
      expect(d.message).toContain('Duplicate prompt name "p": defined in prompts/p.ts and prompts/p_copy.ts.');
      expect(d.fix).toContain("unique name");
    }
    expect(snap.prompts.get("p")?.file).toBe("prompts/p.ts");
  });

  it("treats two files with the same tool name but different extensions as duplicates", async () => {
    const snap = await loadFiles({ ...baseGraph(), "tools/t.mjs": `export default { description: "x", execute: () => "" };` });
    expect(single(snap, "tools/t.mjs", "").message).toContain('Duplicate tool name "t": defined in tools/t.mjs and tools/t.ts.');
    expect(single(snap, "tools/t.ts", "").message).toContain("Duplicate tool name");
  });

  it("requires a tool's name field to equal its file name", async () => {
    const snap = await loadFiles({ ...baseGraph(), "tools/u.ts": tool(`name: "other"`) });
    const d = single(snap, "tools/u.ts", "name");
    expect(d.message).toBe('Tool name "other" does not match its file name "u": a tool\'s registry name is its file name.');
    expect(d.fix).toContain("rename the file to tools/other.ts");
    expect(snap.tools.has("u")).toBe(false);
  });

  it("rejects a tool file name that is not a valid tool name", async () => {
    const snap = await loadFiles({ ...baseGraph(), "tools/word count.ts": tool() });
    const d = single(snap, "tools/word count.ts", "");
    expect(d.message).toContain('"word count" is not a valid tool name');
    expect(d.fix).toContain("tools/word_count.ts");
  });

  it("warns about an unknown field and suggests the right spelling", async () => {
    const snap = await loadFiles({ ...baseGraph(), "models/m.ts": model("m", `fallback: ["x"]`) });
    const d = single(snap, "models/m.ts", "fallback");
    expect(d.severity).toBe("warning");
    expect(d.message).toContain("Unknown field `fallback`");
    expect(d.fix).toContain("Did you mean `fallbacks`?");
  });

  it("warns about deprecated aliases and still honours them", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "prompts/p.ts": prompt("p", `tools: ["t", "stop"]`),
      "tools/stop.ts": tool(),
      "agents/d.ts": agent(
        "d",
        `type: "dual_ai", maxSessionTurns: 3, sideA: { prompt: "p", failSessionTool: "stop" } as never, sideB: { prompt: "p", sessionStop: "t" }`,
      ),
    });
    const d = single(snap, "agents/d.ts", "sideA.failSessionTool");
    expect(d.severity).toBe("warning");
    expect(d.message).toBe('`sideA.failSessionTool` is deprecated: use `sessionFail` instead (agent "d").');
    expect(d.fix).toBe("Rename `sideA.failSessionTool` to `sideA.sessionFail` in agents/d.ts.");
    expect(snap.agents.get("d")?.sides.a.sessionFail).toEqual({ name: "stop" });
    expect(diagnosticsOf(snap, "agents/d.ts")).toHaveLength(1);
  });
});
