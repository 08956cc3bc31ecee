import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setAt, type DocObject } from "@/shared/editor/doc";
import { renameReferences, type RefDoc } from "@/shared/editor/references";
import type { SaveChange } from "@/shared/editor/save-change";
import { loadRegistry } from "../registry";
import { projectRoot, specModulePath } from "../test-fixtures";
import { DefinitionWriteError } from "./errors";
import { contentHash } from "./files";
import { saveDefinitions } from "./save";
import { scaffoldTool } from "./scaffold-tool";
import { readDefinitionSource } from "./source";

let dir: string;
const options = () => ({ dir, projectRoot, readonly: false });
const file = (rel: string) => path.join(dir, rel);
const readFile = (rel: string) => fs.readFileSync(file(rel), "utf8");
const exists = (rel: string) => fs.existsSync(file(rel));

function doc(rel: string): { value: DocObject; hash: string } {
  const text = readFile(rel);
  const r = readDefinitionSource(text);
  if (!r.ok) throw new Error(r.reason);
  return { value: r.value, hash: contentHash(text) };
}

function snapshotFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const kind of fs.readdirSync(dir)) {
    if (!fs.statSync(file(kind)).isDirectory()) continue;
    // Recursive: route folders (api/, controllers/) nest.
    for (const name of fs.readdirSync(file(kind), { recursive: true }) as string[]) {
      if (fs.statSync(file(`${kind}/${name}`)).isFile()) out.set(`${kind}/${name}`, readFile(`${kind}/${name}`));
    }
  }
  return out;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "writer-test-"));
  fs.cpSync(path.join(projectRoot, "agents"), dir, { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("saving editor changes", () => {
  it("a new dual_ai agent and a subagent entry: one new file, one changed line, nothing else; the registry stays clean", async () => {
    const before = snapshotFiles();
    const agent: DocObject = {
      name: "second_opinion",
      type: "dual_ai",
      title: "Second opinion",
      exposeAsTool: true,
      toolDescription: "Review a text a second time.",
      maxSessionTurns: 4,
      sideA: { label: "Writer", prompt: "drafter", sessionFail: { name: "give_up", messageProperty: "reason" } },
      sideB: { label: "Reviewer", prompt: "reviewer", sessionStop: { name: "approve_draft", messageProperty: "draft" } },
    };
    const wa = doc("prompts/writing_assistant.ts");
    const entry = { name: "second_opinion", blocking: false, resumable: { receives_messages: "side_a", maxInstances: 2 } };
    const changes: SaveChange[] = [
      { op: "write", kind: "agents", file: null, hash: null, value: agent },
      { op: "write", kind: "prompts", file: "prompts/writing_assistant.ts", hash: wa.hash, value: setAt(wa.value, "tools", [...(wa.value.tools as DocObject[]), entry]) },
    ];
    const result = await saveDefinitions(changes, options());
    expect(result.written.sort()).toEqual(["agents/second_opinion.ts", "prompts/writing_assistant.ts"]);
    expect(readFile("agents/second_opinion.ts")).toBe(`import { defineAgent } from "@studio/spec";

export default defineAgent({
  name: "second_opinion",
  type: "dual_ai",
  title: "Second opinion",
  exposeAsTool: true,
  toolDescription: "Review a text a second time.",
  maxSessionTurns: 4,
  sideA: { label: "Writer", prompt: "drafter", sessionFail: { name: "give_up", messageProperty: "reason" } },
  sideB: { label: "Reviewer", prompt: "reviewer", sessionStop: { name: "approve_draft", messageProperty: "draft" } },
});
`);
    expect(readFile("prompts/writing_assistant.ts")).toBe(
      before
        .get("prompts/writing_assistant.ts")!
        .replace(
          `initAgentNameProperty: "title" },\n`,
          `initAgentNameProperty: "title" },\n    { name: "second_opinion", blocking: false, resumable: { receives_messages: "side_a", maxInstances: 2 } },\n`,
        ),
    );
    for (const [rel, text] of before) if (rel !== "prompts/writing_assistant.ts") expect(readFile(rel)).toBe(text);
    const snapshot = await loadRegistry({ dir, projectRoot, specModulePath });
    expect(snapshot.diagnostics).toEqual([]);
    expect(snapshot.prompts.get("writing_assistant")!.tools.find((t) => t.name === "second_opinion")).toMatchObject({
      kind: "subagent",
      config: { blocking: false, resumable: { receives_messages: "side_a", maxInstances: 2, parentCommunication: "implicit" } },
    });
  });

  it("renames a prompt: the file moves and every reference follows, byte for byte elsewhere", async () => {
    const before = snapshotFiles();
    const docs: RefDoc[] = [...before.keys()].filter((rel) => /^(agents|prompts|models)\//.test(rel)).map((rel) => {
      const { value } = doc(rel);
      return { id: rel, kind: rel.split("/")[0] as RefDoc["kind"], name: String(value.name), value };
    });
    for (const rel of ["tools/word_count.ts", "tools/give_up.ts"]) docs.push({ id: rel, kind: "tools", name: path.basename(rel, ".ts"), value: null });
    const changed = renameReferences(docs, "prompts", "house_style", "voice");
    expect([...changed.keys()].sort()).toEqual(["prompts/drafter.ts", "prompts/polish_text.ts", "prompts/reviewer.ts", "prompts/writing_assistant.ts"]);
    const changes: SaveChange[] = [...changed].map(([rel, value]) => ({ op: "write", kind: "prompts", file: rel, hash: contentHash(before.get(rel)!), value }));
    changes.push({ op: "write", kind: "prompts", file: "prompts/house_style.ts", hash: contentHash(before.get("prompts/house_style.ts")!), value: setAt(doc("prompts/house_style.ts").value, "name", "voice") });
    const result = await saveDefinitions(changes, options());
    expect(result.renamed).toEqual([{ from: "prompts/house_style.ts", to: "prompts/voice.ts" }]);
    expect(exists("prompts/house_style.ts")).toBe(false);
    expect(readFile("prompts/voice.ts")).toBe(before.get("prompts/house_style.ts")!.replace(`name: "house_style"`, `name: "voice"`));
    for (const rel of changed.keys()) {
      expect(readFile(rel)).toBe(before.get(rel)!.replace(`{ type: "include", prompt: "house_style" }`, `{ type: "include", prompt: "voice" }`));
    }
    const snapshot = await loadRegistry({ dir, projectRoot, specModulePath });
    expect(snapshot.diagnostics).toEqual([]);
    expect(snapshot.prompts.get("drafter")!.includes).toEqual(["voice"]);
  });

  it("a dry run says what Save would write, file by file, and writes nothing", async () => {
    const before = snapshotFiles();
    const fast = doc("models/fast.ts");
    const changes: SaveChange[] = [
      { op: "write", kind: "models", file: "models/fast.ts", hash: fast.hash, value: setAt(fast.value, "inputPrice", 0.5) },
      { op: "write", kind: "prompts", file: null, hash: null, value: { name: "tiny", toolDescription: "Tiny.", model: "fast", prompt: "Be brief." } },
      { op: "delete", file: "tools/current_time.ts", hash: contentHash(before.get("tools/current_time.ts")!) },
    ];
    const result = await saveDefinitions(changes, { ...options(), dryRun: true });
    expect(result.written).toEqual([]);
    const byFile = new Map(result.preview!.map((p) => [p.file, p]));
    expect(byFile.get("models/fast.ts")).toEqual({ file: "models/fast.ts", before: before.get("models/fast.ts"), after: before.get("models/fast.ts")!.replace("inputPrice: 0.4", "inputPrice: 0.5") });
    expect(byFile.get("prompts/tiny.ts")).toMatchObject({ before: null, after: expect.stringContaining(`name: "tiny"`) });
    expect(byFile.get("tools/current_time.ts")).toEqual({ file: "tools/current_time.ts", before: before.get("tools/current_time.ts"), after: null });
    expect(snapshotFiles()).toEqual(before);
    // A dry run refuses what Save refuses.
    await expect(saveDefinitions([{ ...changes[0]!, value: setAt(fast.value, "inputPrice", -1) } as SaveChange], { ...options(), dryRun: true })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("refuses invalid input with the schema's message at the field, and writes nothing", async () => {
    const before = snapshotFiles();
    const d = doc("agents/draft_and_review.ts");
    const err = await saveDefinitions([{ op: "write", kind: "agents", file: "agents/draft_and_review.ts", hash: d.hash, value: setAt(d.value, "maxSessionTurns", 0) }], options()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DefinitionWriteError);
    expect(err).toMatchObject({ code: "VALIDATION_ERROR", details: [{ file: "agents/draft_and_review.ts", path: "maxSessionTurns", message: "maxSessionTurns must be at least 1" }] });
    expect(snapshotFiles()).toEqual(before);
  });

  it("refuses every write when read-only, and a save over a file changed on disk", async () => {
    const d = doc("models/fast.ts");
    const change: SaveChange = { op: "write", kind: "models", file: "models/fast.ts", hash: d.hash, value: setAt(d.value, "inputPrice", 1) };
    await expect(saveDefinitions([change], { ...options(), readonly: true })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("DEFINITIONS_READONLY") });
    await expect(scaffoldTool({ name: "x", description: "d" }, { ...options(), readonly: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
    fs.appendFileSync(file("models/fast.ts"), "// edited elsewhere\n");
    await expect(saveDefinitions([change], options())).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("changed on disk") });
    await expect(saveDefinitions([{ op: "write", kind: "models", file: null, hash: null, value: { name: "fast", provider: "openai", model: "x" } }], options())).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("models/fast.ts already exists") });
  });

  it("an unchanged document writes nothing; a file prettier does not own is edited without reformatting the rest", async () => {
    const d = doc("models/fast.ts");
    const mtime = fs.statSync(file("models/fast.ts")).mtimeMs;
    const result = await saveDefinitions([{ op: "write", kind: "models", file: "models/fast.ts", hash: d.hash, value: d.value }], options());
    expect(result).toMatchObject({ written: [], unchanged: ["models/fast.ts"] });
    expect(fs.statSync(file("models/fast.ts")).mtimeMs).toBe(mtime);
    const ugly = `import { defineModel } from "@studio/spec";\nexport default defineModel({ name: 'local',   provider: 'openai', model: 'x' })\n`;
    fs.writeFileSync(file("models/local.ts"), ugly);
    const l = doc("models/local.ts");
    await saveDefinitions([{ op: "write", kind: "models", file: "models/local.ts", hash: l.hash, value: setAt(l.value, "model", "llama3.1") }], options());
    expect(readFile("models/local.ts")).toBe(ugly.replace(`model: 'x'`, `model: "llama3.1"`));
  });

  it("deletes a file and renames a tool file, updating the tool's references", async () => {
    const reviewer = doc("prompts/reviewer.ts");
    const changes: SaveChange[] = [
      { op: "renameTool", file: "tools/update_status.ts", hash: contentHash(readFile("tools/update_status.ts")), to: "report_progress" },
      { op: "write", kind: "prompts", file: "prompts/reviewer.ts", hash: reviewer.hash, value: setAt(reviewer.value, "tools.1", "report_progress") },
      { op: "delete", file: "tools/current_time.ts", hash: null },
    ];
    const original = readFile("tools/update_status.ts");
    const result = await saveDefinitions(changes, options());
    expect(result.renamed).toEqual([{ from: "tools/update_status.ts", to: "tools/report_progress.ts" }]);
    expect(result.deleted).toEqual(["tools/current_time.ts"]);
    expect(readFile("tools/report_progress.ts")).toBe(original);
    expect(exists("tools/update_status.ts")).toBe(false);
    expect(exists("tools/current_time.ts")).toBe(false);
  });

  it("scaffolds a tool file that loads with its arguments", async () => {
    const { file: rel } = await scaffoldTool(
      { name: "lookup_term", description: "Look up a term in the glossary.", args: [{ name: "term", type: "string", description: "The term." }, { name: "limit", type: "number", optional: true }] },
      options(),
    );
    expect(rel).toBe("tools/lookup_term.ts");
    expect(readFile(rel)).toContain(`term: z.string().describe("The term."),`);
    const snapshot = await loadRegistry({ dir, projectRoot, specModulePath });
    expect(snapshot.tools.get("lookup_term")?.argFields).toEqual(["term", "limit"]);
    expect(snapshot.diagnostics).toEqual([]);
    await expect(scaffoldTool({ name: "lookup_term", description: "again" }, options())).rejects.toMatchObject({ code: "CONFLICT" });
  });
});
