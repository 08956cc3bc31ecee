import { describe, expect, it } from "vitest";
import { walkAgentGraph } from "./graph";
import { agentGraphDiagnostics, agentSummaries } from "./queries";
import { agent, loadFiles, model, prompt, tool } from "./test-fixtures";
import { graphVariables, requiredAtCreation, requiredScopedAtSpawn } from "./variables";

const v = (name: string, type: "text" | "secret", required: boolean, scoped = false) =>
  JSON.stringify({ name, type, required, scoped, description: `${name} value` });

/**
 * root (ai_human) ── prompt rp ── includes inc; tools: lookup (config env), helper (subprompt), desk (handoff),
 * child (subagent) ── prompt cp ── child2 (subagent) ── prompt c2p ── child (cycle back).
 */
function variableGraph(): Record<string, string> {
  return {
    "models/m.ts": model("m"),
    "tools/lookup.ts": tool(`variables: [${v("LOOKUP_URL", "text", true)}]`),
    "tools/fail.ts": tool(),
    "tools/done.ts": tool(),
    "prompts/inc.ts": prompt("inc", `variables: [${v("INC_VAR", "text", true)}], env: { INC_VAR: "from include" }`),
    "prompts/rp.ts": prompt(
      "rp",
      `variables: [${v("REGION", "text", true)}],
       tools: [{ name: "lookup", env: { LOOKUP_URL: "https://lookup.example" } }, "helper", "desk", "child"]`,
    ).replace(`prompt: "You are rp."`, `prompt: [{ type: "include", prompt: "inc" }, { type: "text", content: "Help." }]`),
    "prompts/helper.ts": prompt("helper", `variables: [${v("TONE", "text", false)}]`),
    "prompts/dp.ts": prompt("dp", `variables: [${v("DESK_ID", "text", true)}]`),
    "prompts/cp.ts": prompt("cp", `variables: [${v("CHANNEL", "text", true, true)}, ${v("SHARED_TOKEN", "secret", true)}], tools: ["fail", "done", "child2"]`),
    "prompts/c2p.ts": prompt("c2p", `tools: ["fail", "done", "child"]`),
    "agents/root.ts": agent("root", `sideA: { prompt: "rp" }, env: { COMPANY: "Acme" }, variables: [${v("COMPANY", "text", true)}]`),
    "agents/desk.ts": agent("desk", `exposeAsTool: true, toolDescription: "desk", sideA: { prompt: "dp" }`),
    "agents/child.ts": agent(
      "child",
      `type: "dual_ai", exposeAsTool: true, toolDescription: "child", maxSessionTurns: 3,
       sideA: { prompt: "cp", sessionFail: "fail" }, sideB: { prompt: "cp", sessionStop: "done" }`,
    ),
    "agents/child2.ts": agent(
      "child2",
      `type: "dual_ai", exposeAsTool: true, toolDescription: "child2", maxSessionTurns: 3,
       sideA: { prompt: "c2p", sessionFail: "fail" }, sideB: { prompt: "c2p", sessionStop: "done" }`,
    ),
  };
}

describe("variables of an agent's graph", () => {
  it("walks sides, includes, tools, subprompts, handoffs and subagents, stopping at subagent cycles", async () => {
    const snap = await loadFiles(variableGraph());
    expect(snap.diagnostics).toEqual([]);
    const nodes = walkAgentGraph(snap, "root").map((n) => `${n.kind}:${n.name}@${n.subagentPath.join("/")}`);
    expect(nodes).toEqual(
      expect.arrayContaining([
        "agents:root@",
        "prompts:rp@",
        "prompts:inc@",
        "tools:lookup@",
        "prompts:helper@",
        "agents:desk@",
        "prompts:dp@",
        "agents:child@child",
        "prompts:cp@child",
        "agents:child2@child/child2",
        "prompts:c2p@child/child2",
        "models:m@",
      ]),
    );
    expect(nodes.filter((n) => n.startsWith("agents:child@"))).toEqual(["agents:child@child"]);
  });

  it("lists every declared variable with where it is declared and whether a definition gives it a value", async () => {
    const snap = await loadFiles(variableGraph());
    const g = graphVariables(snap, "root");
    expect(g.variables.map((x) => x.name)).toEqual(["CHANNEL", "COMPANY", "DESK_ID", "INC_VAR", "LOOKUP_URL", "REGION", "SHARED_TOKEN", "TONE"]);
    const channel = g.variables.find((x) => x.name === "CHANNEL")!;
    expect(channel).toMatchObject({ type: "text", required: true, scoped: true, onlyInSubagents: true, hasDefinitionValue: false });
    expect(channel.declaredBy).toEqual([{ kind: "prompts", name: "cp", file: "prompts/cp.ts", subagentPath: ["child"] }]);
    expect(g.variables.find((x) => x.name === "SHARED_TOKEN")?.type).toBe("secret");
    expect(Object.keys(g.definitionValues)).toEqual(["COMPANY", "INC_VAR", "LOOKUP_URL"]);
    expect(g.definitionValues.LOOKUP_URL).toEqual([
      { kind: "tool config env", name: "rp", file: "prompts/rp.ts", tool: "lookup", subagentPath: [] },
    ]);
    expect(g.definitionValues.COMPANY?.[0]).toMatchObject({ kind: "agent env", name: "root" });
  });

  it("requires at creation what no definition provides, except scoped variables of subagent subtrees", async () => {
    const snap = await loadFiles(variableGraph());
    expect(requiredAtCreation(snap, "root").map((x) => x.name)).toEqual(["DESK_ID", "REGION", "SHARED_TOKEN"]);
    // Seen from the child itself, its scoped variable is needed when it starts.
    expect(requiredAtCreation(snap, "child").map((x) => x.name)).toEqual(["CHANNEL", "SHARED_TOKEN"]);
    expect(requiredScopedAtSpawn(snap, "child").map((x) => x.name)).toEqual(["CHANNEL"]);
  });

  it("counts a tool-config env value only for that tool's own declaration", async () => {
    const files = variableGraph();
    files["prompts/dp.ts"] = prompt("dp", `variables: [${v("DESK_ID", "text", true)}, ${v("LOOKUP_URL", "text", true)}]`);
    const snap = await loadFiles(files);
    expect(requiredAtCreation(snap, "root").map((x) => x.name)).toEqual(["DESK_ID", "LOOKUP_URL", "REGION", "SHARED_TOKEN"]);
  });

  it("does not let a parent's definition value satisfy a child's required variable", async () => {
    const files = variableGraph();
    files["prompts/cp.ts"] = prompt("cp", `variables: [${v("COMPANY", "text", true)}], tools: ["fail", "done"]`);
    const snap = await loadFiles(files);
    expect(requiredAtCreation(snap, "root").map((x) => x.name)).toEqual(["COMPANY", "DESK_ID", "REGION"]);
  });

  it("summarises agents with required variables and errors anywhere in their graph", async () => {
    const files = variableGraph();
    files["prompts/c2p.ts"] = prompt("c2p", `tools: ["fail", "done"]`, "missing_model");
    const snap = await loadFiles(files);
    const byName = new Map(agentSummaries(snap).map((s) => [s.name, s]));
    expect([...byName.keys()]).toEqual(["child", "child2", "desk", "root"]);
    const root = byName.get("root")!;
    expect(root.requiredVariables.map((x) => x.name)).toEqual(["DESK_ID", "REGION", "SHARED_TOKEN"]);
    expect(root.requiredVariables[0]).toEqual({ name: "DESK_ID", type: "text", required: true, scoped: false, description: "DESK_ID value" });
    expect(root.variables).toHaveLength(8);
    expect(root).toMatchObject({ type: "ai_human", exposeAsTool: false, sides: { a: { prompt: "rp" } }, file: "agents/root.ts", hasErrors: true });
    expect(agentGraphDiagnostics(snap, "root").map((d) => d.file)).toEqual(["prompts/c2p.ts"]);
    expect(byName.get("desk")?.hasErrors).toBe(false);
    expect(byName.get("child")).toMatchObject({ type: "dual_ai", maxSessionTurns: 3, sides: { a: { prompt: "cp" }, b: { prompt: "cp" } } });
  });
});
