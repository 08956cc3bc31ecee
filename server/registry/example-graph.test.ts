import { createHmac } from "node:crypto";
import path from "node:path";
import { normalizeToolReturn, toolEntryName, type ThreadState } from "@/server/spec";
import { beforeAll, describe, expect, it } from "vitest";
import { walkAgentGraph } from "./graph";
import { agentSummaries, resolvePromptTools } from "./queries";
import { loadRegistry } from "./registry";
import { projectRoot, specModulePath } from "./test-fixtures";
import type { RegistrySnapshot } from "./types";
import { graphVariables, requiredAtCreation } from "./variables";

let snap: RegistrySnapshot;

beforeAll(async () => {
  snap = await loadRegistry({ dir: path.join(projectRoot, "agents"), projectRoot, specModulePath });
});

/** Just the parts of ThreadState the example tools use: an in-memory file store and env lookup. */
function toolState(env: Record<string, string> = {}) {
  const files = new Map<string, { data: string; mimeType: string }>();
  const state = {
    files,
    async env(name: string) {
      const value = env[name];
      if (value === undefined) throw new Error(`variable ${name} is not defined`);
      return value;
    },
    async writeFile(p: string, data: string, mimeType: string) {
      files.set(p, { data, mimeType });
      return { path: p, name: p.split("/").pop()!, type: "file", mimeType, size: Buffer.byteLength(data), createdAt: 0, updatedAt: 0 };
    },
  };
  return state as typeof state & ThreadState;
}

async function run(toolName: string, args: Record<string, unknown>, state = toolState()) {
  const t = snap.tools.get(toolName)!;
  const parsed = t.definition.args ? t.definition.args.parse(args) : {};
  return normalizeToolReturn(await t.definition.execute(state, parsed));
}

describe("the example agent graph in agents/", () => {
  it("loads with zero diagnostics", () => {
    expect(snap.diagnostics).toEqual([]);
    expect([...snap.agents.keys()].sort()).toEqual(["draft_and_review", "writing_assistant"]);
    expect([...snap.prompts.keys()].sort()).toEqual(["drafter", "house_style", "polish_text", "reviewer", "writing_assistant"]);
    expect([...snap.models.keys()].sort()).toEqual(["careful", "fast"]);
    expect([...snap.tools.keys()].sort()).toEqual(["approve_draft", "current_time", "give_up", "save_note", "update_status", "word_count"]);
    expect(snap.files.every((f) => f.errors === 0 && f.warnings === 0)).toBe(true);
  });

  it("mounts a thread endpoint and a controller", () => {
    expect(snap.endpoints.map((r) => `${r.method} ${r.route} ${r.file}`)).toEqual([
      "GET /notes api/notes.ts",
      "GET /notes/:slug api/notes/[slug].ts",
    ]);
    expect(snap.controllers.map((r) => `${r.method} ${r.route} ${r.file}`)).toEqual([
      "POST /webhooks/draft-request controllers/webhooks/draft-request.post.ts",
    ]);
  });

  it("resolves every link: models, includes, tool entries, sides and session bindings", () => {
    for (const p of snap.prompts.values()) {
      expect(snap.models.has(p.definition.model)).toBe(true);
      for (const inc of p.includes) expect(snap.prompts.has(inc)).toBe(true);
      expect(p.tools.map((e) => e.name)).toEqual(p.definition.tools.map(toolEntryName));
    }
    expect(snap.models.get("careful")?.fallbacks).toEqual(["fast"]);
    expect(resolvePromptTools(snap, "writing_assistant")?.map((e) => `${e.kind}:${e.name}`)).toEqual([
      "tool:word_count",
      "tool:current_time",
      "tool:save_note",
      "subprompt:polish_text",
      "subagent:draft_and_review",
    ]);
    const sub = resolvePromptTools(snap, "writing_assistant")?.find((e) => e.kind === "subagent");
    expect(sub).toMatchObject({ config: { blocking: true, initUserMessageProperty: "brief", initAgentNameProperty: "title", resumable: false } });
    const dr = snap.agents.get("draft_and_review")!;
    expect(dr.sides.a).toMatchObject({ label: "Writer", prompt: "drafter", sessionFail: { name: "give_up", messageProperty: "reason" } });
    expect(dr.sides.b).toMatchObject({
      label: "Reviewer",
      prompt: "reviewer",
      sessionStop: { name: "approve_draft", messageProperty: "draft", attachmentsProperty: "attachments" },
      sessionStatus: { name: "update_status", messageProperty: "status" },
    });
    expect(snap.prompts.get("drafter")?.schemaFields).toEqual(["brief", "title"]);
    const graph = walkAgentGraph(snap, "writing_assistant").map((n) => `${n.kind}:${n.name}`);
    expect(graph).toEqual(expect.arrayContaining(["agents:draft_and_review", "prompts:reviewer", "tools:approve_draft", "models:careful"]));
  });

  it("needs no variable at creation: AUDIENCE has a default, NOTES_SIGNING_KEY is optional", () => {
    expect(requiredAtCreation(snap, "writing_assistant")).toEqual([]);
    const vars = graphVariables(snap, "writing_assistant");
    expect(vars.variables.map((x) => [x.name, x.type, x.required, x.hasDefinitionValue])).toEqual([
      ["AUDIENCE", "text", false, true],
      ["NOTES_SIGNING_KEY", "secret", false, false],
    ]);
    const summary = agentSummaries(snap).find((a) => a.name === "draft_and_review");
    expect(summary).toMatchObject({ type: "dual_ai", exposeAsTool: true, maxSessionTurns: 6, hasErrors: false });
  });

  it("word_count counts words, sentences and paragraphs", async () => {
    const r = await run("word_count", { text: "One two three. Four five!\n\nSix seven?" });
    expect(r).toEqual({ status: "success", result: "7 words, 37 characters, 3 sentences, 2 paragraphs; about 1 minute to read." });
  });

  it("current_time answers in the requested zone and rejects an unknown zone", async () => {
    const ok = await run("current_time", { timezone: "Europe/Paris" });
    expect(ok.status).toBe("success");
    expect(ok.status === "success" && ok.result).toMatch(/\(Europe\/Paris\); ISO \d{4}-\d\d-\d\dT/);
    const bad = await run("current_time", { timezone: "Mars/Base" });
    expect(bad).toMatchObject({ status: "error" });
    expect(bad.status === "error" && bad.error).toContain('Unknown time zone "Mars/Base"');
  });

  it("save_note writes /notes/<slug>.md, and signs it with HMAC-SHA256 when NOTES_SIGNING_KEY is set", async () => {
    const plain = toolState();
    const r = await run("save_note", { title: "Q3 Plan: Draft!", content: "Ship it." }, plain);
    expect(r).toEqual({ status: "success", result: "Saved /notes/q3-plan-draft.md (28 bytes)." });
    expect(plain.files.get("/notes/q3-plan-draft.md")).toEqual({ data: "# Q3 Plan: Draft!\n\nShip it.\n", mimeType: "text/markdown" });
    expect(plain.files.has("/notes/q3-plan-draft.md.sig")).toBe(false);

    const signed = toolState({ NOTES_SIGNING_KEY: "k3y-value" });
    const r2 = await run("save_note", { title: "Q3 Plan: Draft!", content: "Ship it." }, signed);
    expect(r2.status === "success" && r2.result).toContain("and its HMAC-SHA256 signature /notes/q3-plan-draft.md.sig");
    expect(r2.status === "success" && r2.result).not.toContain("k3y-value");
    const expected = createHmac("sha256", "k3y-value").update("# Q3 Plan: Draft!\n\nShip it.\n").digest("hex");
    expect(signed.files.get("/notes/q3-plan-draft.md.sig")?.data).toBe(`${expected}\n`);
  });

  it("the session tools return short success texts", async () => {
    expect(await run("approve_draft", { draft: "Final text here." })).toEqual({ status: "success", result: "Draft approved (3 words)." });
    expect((await run("give_up", { reason: "No facts given." })).status).toBe("success");
    expect(await run("update_status", { status: "Round 2" })).toEqual({ status: "success", result: "Status updated." });
  });
});
