import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { setAt, type DocObject } from "@/shared/editor/doc";
import { patchDefinitionSource } from "./patch";
import { readDefinitionSource } from "./source";

const example = (file: string) => fs.readFileSync(path.join(import.meta.dirname, "../../../agents", file), "utf8");

function read(text: string): DocObject {
  const r = readDefinitionSource(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

function patch(text: string, value: DocObject, kind: "agents" | "prompts" | "models" = "prompts"): string {
  const r = patchDefinitionSource(text, value, kind);
  if (!r.ok) throw new Error(r.reason);
  return r.text;
}

describe("reading a definition file as a document", () => {
  it("reads data and keeps code as markers: requiredSchema, concatenated strings, template literals", () => {
    const value = read(example("prompts/drafter.ts"));
    expect(value.name).toBe("drafter");
    expect(value.requiredSchema).toEqual({ $code: expect.stringContaining("z.object({") });
    const parts = value.prompt as DocObject[];
    expect(parts[0]).toEqual({ type: "include", prompt: "house_style" });
    expect(parts[1]!.content).toContain("You are the Writer.");
    const agent = read(example("agents/draft_and_review.ts"));
    expect(agent.toolDescription).toBe(
      "Write a new text from a brief. A writer drafts it and a reviewer checks it against the brief and the house " +
        "style, asking for revisions until it is right. Returns the approved text, or the reason it could not be written.",
    );
  });

  it("finds the object behind a const and through satisfies/as; refuses what it cannot rewrite", () => {
    expect(read(`const d = { name: "m", provider: "openai", model: "x" } satisfies object;\nexport default d;\n`).name).toBe("m");
    expect(read(`export default ({ name: "m" } as const);\n`).name).toBe("m");
    const spread = readDefinitionSource(`const base = {};\nexport default { ...base, name: "m" };\n`);
    expect(spread).toMatchObject({ ok: false, reason: expect.stringContaining("spreads") });
    expect(readDefinitionSource(`export default build();\n`)).toMatchObject({ ok: false, reason: expect.stringContaining("not an object literal") });
    expect(readDefinitionSource(`export default { name: \n`)).toMatchObject({ ok: false, reason: expect.stringContaining("syntax error") });
  });
});

describe("surgical edits", () => {
  it("an unchanged document leaves the file byte for byte", () => {
    for (const file of ["prompts/drafter.ts", "agents/draft_and_review.ts", "models/careful.ts", "prompts/house_style.ts"]) {
      const text = example(file);
      const r = patchDefinitionSource(text, read(text), "prompts");
      expect(r).toEqual({ ok: true, text, changed: false });
    }
  });

  it("changes one value and keeps comments, imports, code and the rest of the file", () => {
    const text = example("agents/draft_and_review.ts");
    const out = patch(text, setAt(read(text), "maxSessionTurns", 4), "agents");
    expect(out).toBe(text.replace("maxSessionTurns: 6,", "maxSessionTurns: 4,"));
  });

  it("edits inside a nested object without touching its comment", () => {
    const text = example("agents/draft_and_review.ts");
    const out = patch(text, setAt(read(text), "sideB.maxSteps", 3), "agents");
    expect(out).toContain("// A reply with revision notes ends the Reviewer's turn");
    expect(out).toBe(text.replace(/maxSteps: 6,\n {4}sessionStop/, "maxSteps: 3,\n    sessionStop"));
  });

  it("inserts a new key where the stable key order puts it, and removes keys with their commas", () => {
    const text = example("models/careful.ts");
    let value = setAt(read(text), "baseURL", "http://127.0.0.1:8080/v1");
    value = setAt(value, "cachedPrice", undefined);
    const out = patch(text, value, "models");
    expect(out).toContain(`  model: "gpt-4.1",\n  baseURL: "http://127.0.0.1:8080/v1",\n  fallbacks: ["fast"],`);
    expect(out).not.toContain("cachedPrice");
    expect(out).toContain("  outputPrice: 8,\n  capabilities:");
    expect(out).toContain("// USD per million tokens.");
  });

  it("appends to an array and keeps the other elements' text (template literals stay as written)", () => {
    const text = example("prompts/drafter.ts");
    const value = read(text);
    const out = patch(text, setAt(value, "tools", [...(value.tools as string[]), "current_time"]));
    expect(out).toBe(text.replace(`tools: ["word_count", "give_up"]`, `tools: ["word_count", "give_up", "current_time"]`));
    const parts = value.prompt as DocObject[];
    const withEnv = patch(text, setAt(value, "prompt", [...parts, { type: "env", property: "AUDIENCE" }]));
    expect(withEnv).toContain("fulfil), call give_up with the reason and what the requester must provide. Do not give up because of style notes.`,\n    },");
    expect(withEnv).toContain(`{ type: "env", property: "AUDIENCE" }`);
    expect(readDefinitionSource(withEnv)).toMatchObject({ ok: true });
  });

  it("removes array elements at the start, middle and end", () => {
    const text = `export default { name: "p", tools: ["a", "b", "c", "d"] };\n`;
    const value = read(text);
    expect(patch(text, setAt(value, "tools", ["b", "c", "d"]))).toContain(`tools: ["b", "c", "d"]`);
    expect(patch(text, setAt(value, "tools", ["a", "d"]))).toContain(`tools: ["a", "d"]`);
    expect(patch(text, setAt(value, "tools", ["a", "b"]))).toContain(`tools: ["a", "b"]`);
    expect(patch(text, setAt(value, "tools", ["x"]))).toContain(`tools: ["x"]`);
    expect(patch(text, setAt(value, "tools", []))).toContain(`tools: []`);
  });

  it("writes multi-line text as a template literal and never rewrites code markers", () => {
    const text = example("prompts/polish_text.ts");
    const value = read(text);
    const out = patch(text, setAt(value, "toolDescription", "Line one\nline two with a `tick` and ${x}, long enough to be a template"));
    expect(out).toContain("toolDescription: `Line one\nline two with a \\`tick\\` and \\${x}, long enough to be a template`,");
    expect(out).toContain("requiredSchema: z.object({");
    expect(read(out).toolDescription).toBe("Line one\nline two with a `tick` and ${x}, long enough to be a template");
  });

  it("replaces a string tools entry with its object form", () => {
    const text = example("prompts/reviewer.ts");
    const value = read(text);
    const out = patch(text, setAt(value, "tools.1", { name: "update_status", env: { LEVEL: "brief" } }));
    expect(out).toContain(`tools: ["approve_draft", { name: "update_status", env: { LEVEL: "brief" } }, "word_count"]`);
  });
});
