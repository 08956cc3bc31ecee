import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeAgentsDir, projectRoot, removeDir } from "@/server/registry/test-fixtures";
import { runCli } from "./main";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeDir(d);
});

async function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, cwd, env as NodeJS.ProcessEnv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** A project folder holding `agents/` built from `files`. */
async function project(files: Record<string, string>): Promise<string> {
  const root = await makeAgentsDir(Object.fromEntries(Object.entries(files).map(([k, v]) => [`agents/${k}`, v])));
  dirs.push(root);
  return root;
}

const model = `export default { name: "fast", provider: "openai", model: "gpt-4.1-mini" };`;
const prompt = `export default { name: "helper", model: "fast", prompt: "Help.", tools: ["count"] };`;
const agent = `export default { name: "helper", type: "ai_human", sideA: { prompt: "helper" } };`;
const tool = `export default { description: "Counts.", execute: async () => "1" };`;

describe("studio validate", () => {
  it("exits 0 on the shipped example graph and prints its counts", async () => {
    const r = await run(["validate"], projectRoot);
    expect(r.err).toBe("");
    expect(r.out).toMatch(/agents: \d+ agents, \d+ prompts, .*, 1 evals; 0 errors/);
    expect(r.code).toBe(0);
  });

  it("prints each error with its file, field, message and fix, and exits 1", async () => {
    const root = await project({ "models/fast.ts": model, "prompts/helper.ts": prompt.replace('"fast"', '"fsat"'), "agents/helper.ts": agent, "tools/count.ts": tool });
    const r = await run(["validate"], root);
    expect(r.code).toBe(1);
    expect(r.err).toContain("error prompts/helper.ts model:");
    expect(r.err).toContain('"fsat"');
    expect(r.err).toContain("Fix:");
    expect(r.out).toMatch(/1 error/);
  });

  it("takes AGENTS_DIR from --dir and from the environment, and says when the folder is missing", async () => {
    const root = await project({ "models/fast.ts": model });
    expect((await run(["validate", "--dir", "nowhere"], root)).err).toMatch(/AGENTS_DIR is missing/);
    expect((await run(["validate"], root, { AGENTS_DIR: "nowhere" })).code).toBe(1);
    expect((await run(["validate", "--dir", "agents"], root)).code).toBe(0);
  });

  it("answers a bad command or option with usage and exit code 2", async () => {
    expect((await run(["frobnicate"], projectRoot)).code).toBe(2);
    const r = await run(["validate", "--bogus"], projectRoot);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/Unknown option '--bogus'/);
  });
});

describe("studio types", () => {
  it("writes union types of every name, and rewrites the file only when a name changes", async () => {
    const root = await project({ "models/fast.ts": model, "prompts/helper.ts": prompt, "agents/helper.ts": agent, "tools/count.ts": tool });
    const first = await run(["types"], root);
    expect(first.code).toBe(0);
    const file = path.join(root, "agents/studio-names.d.ts");
    const text = await fs.readFile(file, "utf8");
    expect(text).toContain('type Agents = "helper";');
    expect(text).toContain('type Models = "fast";');
    expect(text).toContain('type Tools = "count";');
    expect(text).toContain("type HookIds = never;");
    expect((await run(["types"], root)).out).toMatch(/up to date/);
    await fs.writeFile(path.join(root, "agents/tools/sum.ts"), tool);
    await run(["types"], root);
    expect(await fs.readFile(file, "utf8")).toContain('type Tools = "count" | "sum";');
  });

  it("refuses to write types for a graph with errors", async () => {
    const root = await project({ "prompts/helper.ts": prompt });
    const r = await run(["types"], root);
    expect(r.code).toBe(1);
    await expect(fs.access(path.join(root, "agents/studio-names.d.ts"))).rejects.toThrow();
  });
});

describe("studio scaffold", () => {
  it("writes the folders with an AGENTS.md each and keeps files that exist", async () => {
    const root = await project({ "tools/AGENTS.md": "my own notes" });
    const r = await run(["scaffold"], root);
    expect(r.code).toBe(0);
    for (const folder of ["agents", "prompts", "models", "tools", "hooks", "effects", "evals", "api", "controllers"]) {
      await expect(fs.access(path.join(root, "agents", folder, "AGENTS.md"))).resolves.toBeUndefined();
    }
    expect(await fs.readFile(path.join(root, "agents/tools/AGENTS.md"), "utf8")).toBe("my own notes");
    expect(r.out).toMatch(/Kept 1 existing file\(s\): tools\/AGENTS.md/);
    expect(await fs.readFile(path.join(root, "agents/agents/AGENTS.md"), "utf8")).toContain("defineAgent");
    expect((await run(["validate"], root)).code).toBe(0); // the AGENTS.md files are not definitions
  });
});
