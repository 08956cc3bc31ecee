import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { belongsToPackage, isPacked, isVisibleInNamespace, packedMetaSchema } from "@/server/spec";
import { loadRegistry } from "../registry";
import { makeAgentsDir, projectRoot, removeDir, specModulePath } from "../test-fixtures";
import { PackRefusedError } from "./collect";
import { packAgent } from "./pack";
import { signFiles, verifySignature } from "./signature";
import { unpackPackage } from "./unpack";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeDir(d);
});
const tmp = async (files: Record<string, string> = {}) => {
  const d = await makeAgentsDir(files);
  dirs.push(d);
  return d;
};
const load = (dir: string) => loadRegistry({ dir, projectRoot, specModulePath });

async function readTree(dir: string, base = dir): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) for (const [k, v] of await readTree(abs, base)) out.set(k, v);
    else out.set(path.relative(base, abs).split(path.sep).join("/"), await fs.readFile(abs));
  }
  return out;
}

describe("pack", () => {
  it("packs writing_assistant with everything it reaches, a README and a signed PackedMeta", async () => {
    const snap = await load(path.join(projectRoot, "agents"));
    const out = path.join(await tmp(), "kit");
    const { meta, files } = await packAgent(snap, "writing_assistant", { outDir: out, packageName: "@studio-test/writing-kit", version: "1.2.3" });
    expect(meta.entryAgents).toEqual(["writing_assistant"]);
    expect(meta.definitions.agents).toEqual(["draft_and_review", "writing_assistant"]);
    expect(meta.definitions.tools).toEqual(expect.arrayContaining(["word_count", "save_note", "current_time", "approve_draft"]));
    expect(meta.definitions.models).toContain("fast");
    expect(files).toEqual(expect.arrayContaining(["package.json", "README.md", "standardagent.json", "agents/prompts/house_style.ts", "agents/api/notes/[slug].ts"]));
    expect(files.some((f) => f.startsWith("agents/controllers/"))).toBe(false);
    const pkg = JSON.parse(await fs.readFile(path.join(out, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ name: "@studio-test/writing-kit", version: "1.2.3", standardagent: { entryAgents: ["writing_assistant"] } });
    expect(await fs.readFile(path.join(out, "README.md"), "utf8")).toContain("`word_count`: ");
    const written = packedMetaSchema.parse(JSON.parse(await fs.readFile(path.join(out, "standardagent.json"), "utf8")));
    expect(isPacked({ __meta: written })).toBe(true);
    // The signature covers the definitions and README; changing one byte of a file is detected.
    const tree = await readTree(out);
    tree.delete("package.json");
    tree.delete("standardagent.json");
    expect(verifySignature(written.signature, tree)).toEqual([]);
    tree.set("agents/tools/word_count.ts", Buffer.from("export default {}"));
    expect(verifySignature(written.signature, tree)).toEqual(["agents/tools/word_count.ts"]);
    expect(written.variables.map((v) => v.name)).toContain("NOTES_SIGNING_KEY");
    expect(JSON.stringify(written)).not.toMatch(/value/i);
  });

  it("refuses a secret's value, an import from outside the folder, a foreign package, and a missing package name", async () => {
    const dir = await tmp({
      "models/fast.ts": `export default { name: "fast", provider: "openai", model: "m" };`,
      "prompts/p.ts": `export default { name: "p", model: "fast", prompt: "Hi", tools: ["t"], variables: [{ name: "API_TOKEN", type: "secret" }], env: { API_TOKEN: "sk-live-123" } };`,
      "agents/a.ts": `export default { name: "a", type: "ai_human", sideA: { prompt: "p" } };`,
      "tools/t.ts": `import { helper } from "../../outside";\nexport default { description: "T", execute: async () => helper() + String(await import("left-pad")) };`,
    });
    await fs.writeFile(path.join(path.dirname(dir), "outside.ts"), "export const helper = () => 'x';");
    const snap = await load(dir);
    const error = await packAgent(snap, "a", { outDir: path.join(dir, "..", "out-a"), packageName: "kit" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PackRefusedError);
    const text = (error as Error).message;
    expect(text).toMatch(/secret variable API_TOKEN is given a value/);
    expect(text).toMatch(/tools\/t.ts imports "..\/..\/outside", a file outside the agents folder/);
    expect(text).toMatch(/tools\/t.ts imports the package "left-pad"/);
    expect(text).not.toContain("sk-live-123");
    await fs.rm(path.join(path.dirname(dir), "outside.ts"));
    const clean = await tmp({
      "models/fast.ts": `export default { name: "fast", provider: "openai", model: "m" };`,
      "prompts/p.ts": `export default { name: "p", model: "fast", prompt: "Hi" };`,
      "agents/a.ts": `export default { name: "a", type: "ai_human", sideA: { prompt: "p" } };`,
    });
    await expect(packAgent(await load(clean), "a", { outDir: path.join(clean, "out") })).rejects.toThrow(/has no packageName/);
    await expect(packAgent(await load(clean), "nope", { outDir: path.join(clean, "out") })).rejects.toThrow(/There is no agent "nope" \(agents: a\)/);
  });
});

describe("installed packages", () => {
  async function projectWithKit(where: "packed" | "node_modules", extra: Record<string, string> = {}) {
    const root = await tmp({ "agents/models/fast.ts": `export default { name: "fast", provider: "openai", model: "local-model" };`, ...extra });
    const snap = await load(path.join(projectRoot, "agents"));
    const target = where === "packed" ? path.join(root, "agents/packed/@studio-test/writing-kit") : path.join(root, "node_modules/@studio-test/writing-kit");
    await packAgent(snap, "writing_assistant", { outDir: target, packageName: "@studio-test/writing-kit", version: "1.0.0" });
    return root;
  }

  it("loads a node_modules package under packageId/name, linked inside its own namespace, its endpoint mounted", async () => {
    const root = await projectWithKit("node_modules");
    const snap = await load(path.join(root, "agents"));
    expect(snap.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const agent = snap.agents.get("@studio-test/writing-kit/writing_assistant");
    expect(agent?.package).toBe("@studio-test/writing-kit");
    expect(agent?.sides.a.prompt).toBe("@studio-test/writing-kit/writing_assistant");
    const prompt = snap.prompts.get("@studio-test/writing-kit/writing_assistant")!;
    expect(prompt.definition.model).toBe("@studio-test/writing-kit/fast");
    expect(prompt.tools.map((t) => `${t.kind}:${t.name}`)).toContain("subagent:@studio-test/writing-kit/draft_and_review");
    expect(snap.models.has("fast")).toBe(true);
    expect(snap.models.get("fast")?.package).toBeUndefined();
    expect(snap.packages).toEqual([expect.objectContaining({ id: "@studio-test/writing-kit", source: "node_modules", shadowed: false })]);
    expect(snap.files.find((f) => f.name === "@studio-test/writing-kit/word_count")?.file).toBe("../node_modules/@studio-test/writing-kit/agents/tools/word_count.ts");
    expect(snap.endpoints.map((e) => e.route)).toContain("/packages/@studio-test/writing-kit/notes/:slug");
    expect(belongsToPackage("@studio-test/writing-kit/word_count", "@studio-test/writing-kit")).toBe(true);
    expect(isVisibleInNamespace("word_count", { kind: "packed", packageId: "@studio-test/writing-kit" })).toBe(false);
  });

  it("checks an installed package against its signature and warns about files changed after packing", async () => {
    const root = await projectWithKit("node_modules");
    const clean = await load(path.join(root, "agents"));
    expect(clean.diagnostics.filter((d) => d.kind === "registry")).toEqual([]);
    const file = path.join(root, "node_modules/@studio-test/writing-kit/agents/prompts/house_style.ts");
    await fs.appendFile(file, "\n// edited in node_modules\n");
    const snap = await load(path.join(root, "agents"));
    const warning = snap.diagnostics.find((d) => d.kind === "registry");
    expect(warning).toMatchObject({ severity: "warning", file: "../node_modules/@studio-test/writing-kit/package.json" });
    expect(warning?.message).toContain("agents/prompts/house_style.ts");
    expect(warning?.fix).toContain("studio unpack @studio-test/writing-kit");
  });

  it("prefers the local copy under agents/packed over the installed one", async () => {
    const root = await projectWithKit("packed");
    await fs.cp(path.join(root, "agents/packed/@studio-test/writing-kit"), path.join(root, "node_modules/@studio-test/writing-kit"), { recursive: true });
    const snap = await load(path.join(root, "agents"));
    expect(snap.packages?.map((p) => `${p.source}:${p.shadowed}`)).toEqual(["packed:false", "node_modules:true"]);
    expect(snap.files.find((f) => f.name === "@studio-test/writing-kit/word_count")?.file).toBe("packed/@studio-test/writing-kit/agents/tools/word_count.ts");
    expect(snap.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("isolates a package: its references never reach the root graph's definitions", async () => {
    const root = await tmp({
      "agents/tools/shared_tool.ts": `export default { description: "Root tool", execute: async () => "root" };`,
      "node_modules/kit/package.json": JSON.stringify({ name: "kit", version: "1.0.0", standardagent: { entryAgents: ["a"] } }),
      "node_modules/kit/agents/models/m.ts": `export default { name: "m", provider: "openai", model: "x" };`,
      "node_modules/kit/agents/prompts/p.ts": `export default { name: "p", model: "m", prompt: "Hi", tools: ["shared_tool"] };`,
      "node_modules/kit/agents/agents/a.ts": `export default { name: "a", type: "ai_human", sideA: { prompt: "p" } };`,
    });
    const snap = await load(path.join(root, "agents"));
    const errors = snap.diagnostics.filter((d) => d.severity === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.file).toBe("../node_modules/kit/agents/prompts/p.ts");
    expect(errors[0]!.message).toContain("kit/shared_tool");
  });

  it("unpacks a package into editable files, reporting what already exists", async () => {
    const root = await projectWithKit("node_modules", { "agents/tools/word_count.ts": "// my own word count\n" });
    const report = await unpackPackage(path.join(root, "node_modules/@studio-test/writing-kit"), path.join(root, "agents"));
    expect(report.find((f) => f.file === "tools/word_count.ts")?.status).toBe("kept");
    expect(report.find((f) => f.file === "agents/writing_assistant.ts")?.status).toBe("copied");
    expect(await fs.readFile(path.join(root, "agents/tools/word_count.ts"), "utf8")).toBe("// my own word count\n");
    const again = await unpackPackage(path.join(root, "node_modules/@studio-test/writing-kit"), path.join(root, "agents"));
    expect(again.find((f) => f.file === "agents/writing_assistant.ts")?.status).toBe("identical");
  });

  it("signs files independently of the order they are given in", () => {
    const a = signFiles(new Map([["b", "2"], ["a", "1"]]));
    const b = signFiles(new Map([["a", "1"], ["b", "2"]]));
    expect(a.digest).toBe(b.digest);
  });
});
