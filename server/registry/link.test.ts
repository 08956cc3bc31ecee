import { describe, expect, it } from "vitest";
import { resolvePromptTools } from "./queries";
import { agent, baseGraph, def, diagnosticsOf, loadFiles, model, prompt, single, tool } from "./test-fixtures";

/** A valid graph with a dual_ai subagent `sub` (worker/reviewer) and a handoff target `desk`. */
function subagentGraph(): Record<string, string> {
  return {
    ...baseGraph(),
    "tools/approve.ts": tool("", "z.object({ summary: z.string(), files: z.array(z.string()).optional() })"),
    "tools/fail.ts": tool("", "z.object({ reason: z.string() })"),
    "tools/status.ts": tool("", "z.object({ status: z.string() })"),
    "prompts/worker.ts": prompt("worker", `tools: ["fail", "status"], requiredSchema: z.object({ task: z.string(), label: z.string() })`),
    "prompts/reviewer.ts": prompt("reviewer", `tools: ["approve"]`),
    "agents/sub.ts": agent(
      "sub",
      `type: "dual_ai", exposeAsTool: true, toolDescription: "does work", maxSessionTurns: 4,
       sideA: { prompt: "worker", sessionFail: { name: "fail", messageProperty: "reason" }, sessionStatus: "status" },
       sideB: { prompt: "reviewer", sessionStop: { name: "approve", messageProperty: "summary", attachmentsProperty: "files" } }`,
    ),
    "agents/desk.ts": agent("desk", `exposeAsTool: true, toolDescription: "front desk", sideA: { prompt: "p" }`),
  };
}

describe("linking: references between definitions", () => {
  it("accepts the valid graph with no diagnostics", async () => {
    const snap = await loadFiles(subagentGraph());
    expect(snap.diagnostics).toEqual([]);
  });

  it("reports a prompt naming an unknown model, suggesting the close name", async () => {
    const snap = await loadFiles({ ...baseGraph(), "prompts/p.ts": prompt("p", `tools: ["t"]`, "n") });
    const d = single(snap, "prompts/p.ts", "model");
    expect(d).toMatchObject({ severity: "error", kind: "prompts", name: "p" });
    expect(d.message).toBe('Prompt "p" uses model "n", which no model file defines. Did you mean `m`?');
    expect(d.fix).toContain("create models/n.ts with `export default defineModel({ name: 'n'");
  });

  it("reports a prompt offering tools on a model that declares capabilities.tools false", async () => {
    const snap = await loadFiles({ ...baseGraph(), "models/m.ts": model("m", `capabilities: { tools: false }`), "prompts/p.ts": prompt("p", `tools: ["t"]`) });
    const d = single(snap, "prompts/p.ts", "tools");
    expect(d).toMatchObject({ severity: "error", kind: "prompts", name: "p" });
    expect(d.message).toBe('Prompt "p" offers 1 tool, but its model "m" declares `capabilities.tools: false`: it cannot call them.');
    expect(d.fix).toContain("set `capabilities.tools: true` in models/m.ts");
    const without = await loadFiles({ ...baseGraph(), "models/m.ts": model("m", `capabilities: { tools: false }`), "prompts/p.ts": prompt("p", `tools: []`) });
    expect(without.diagnostics).toEqual([]);
  });

  it("reports a provider tool the model's built-in provider does not run", async () => {
    const snap = await loadFiles({ ...baseGraph(), "prompts/p.ts": prompt("p", `tools: ["t"], providerTools: ["web_search"]`) });
    const d = single(snap, "prompts/p.ts", "providerTools.0");
    expect(d.message).toBe('Prompt "p" asks for provider tool "web_search", but its model "m" is on provider "openai", which runs no tools itself.');
    expect(d.fix).toContain("openai-responses, anthropic, google");
    const onGoogle = await loadFiles({ ...baseGraph(), "models/m.ts": model("m", `provider: "google"`), "prompts/p.ts": prompt("p", `tools: ["t"], providerTools: ["web_search", "code_execution"]`) });
    expect(onGoogle.diagnostics).toEqual([]);
  });

  it("reports an unknown model in fallbacks and warns about a model falling back to itself", async () => {
    const snap = await loadFiles({ ...baseGraph(), "models/m.ts": model("m", `fallbacks: ["m", "ghost"]`) });
    expect(single(snap, "models/m.ts", "fallbacks.1").message).toContain('falls back to model "ghost", which no model file defines');
    expect(single(snap, "models/m.ts", "fallbacks.0").severity).toBe("warning");
    expect(snap.models.get("m")?.fallbacks).toEqual([]);
  });

  it("reports an unknown tools entry, naming what is known", async () => {
    const snap = await loadFiles({ ...baseGraph(), "prompts/p.ts": prompt("p", `tools: ["t", "tt_x"]`) });
    const d = single(snap, "prompts/p.ts", "tools.1");
    expect(d.message).toBe('Prompt "p" offers "tt_x", which is not a tool, prompt or agent.');
    expect(d.fix).toContain("create tools/tt_x.ts");
    expect(d.fix).toContain("Known: `t` and `p`.");
    expect(resolvePromptTools(snap, "p")?.map((e) => e.name)).toEqual(["t"]);
  });

  it("reports an include of an unknown prompt and include cycles", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "prompts/x.ts": prompt("x").replace(`prompt: "You are x."`, `prompt: [{ type: "include", prompt: "y" }, { type: "include", prompt: "ghost" }]`),
      "prompts/y.ts": prompt("y").replace(`prompt: "You are y."`, `prompt: [{ type: "text", content: "hi" }, { type: "include", prompt: "x" }]`),
      "prompts/z.ts": prompt("z").replace(`prompt: "You are z."`, `prompt: [{ type: "include", prompt: "z" }]`),
    });
    expect(single(snap, "prompts/x.ts", "prompt.1.prompt").message).toContain('includes prompt "ghost" (prompt.1), which does not exist');
    expect(single(snap, "prompts/x.ts", "prompt.0.prompt").message).toBe(
      "Include cycle: x → y → x. A prompt that includes itself can never be rendered.",
    );
    expect(single(snap, "prompts/y.ts", "prompt.1.prompt").message).toContain("Include cycle: y → x → y.");
    expect(single(snap, "prompts/z.ts", "prompt.0.prompt").message).toContain("Include cycle: z → z.");
  });

  it("reports an agent side naming an unknown prompt", async () => {
    const snap = await loadFiles({ ...baseGraph(), "agents/a.ts": agent("a", `sideA: { prompt: "pp" }`) });
    const d = single(snap, "agents/a.ts", "sideA.prompt");
    expect(d.message).toBe('Agent "a" sideA uses prompt "pp", which no prompt file defines. Did you mean `p`?');
    expect(d.fix).toContain("Correct sideA.prompt in agents/a.ts");
  });

  it("reports unknown hook ids on agents and prompts", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "hooks/keep_last.ts": def("defineHook", `{ id: "keep_last", hook: "filter_messages", execute: (_s, m) => m.slice(-20) }`),
      "agents/a.ts": agent("a", `sideA: { prompt: "p" }, hooks: ["keep_last", "keep_lst"]`),
      "prompts/p.ts": prompt("p", `tools: ["t"], hooks: ["nope"]`),
    });
    expect(single(snap, "agents/a.ts", "hooks.1").message).toContain('uses hook "keep_lst", which no hook file defines. Did you mean `keep_last`?');
    expect(single(snap, "prompts/p.ts", "hooks.0").fix).toContain("Create hooks/nope.ts");
    expect(diagnosticsOf(snap, "agents/a.ts")).toHaveLength(1);
  });
});

describe("linking: agents", () => {
  it("requires sideB on a dual_ai agent", async () => {
    const snap = await loadFiles({ ...baseGraph(), "agents/a.ts": agent("a", `type: "dual_ai", maxSessionTurns: 2, sideA: { prompt: "p" }`) });
    const d = single(snap, "agents/a.ts", "sideB");
    expect(d.severity).toBe("error");
    expect(d.message).toContain('Agent "a" is dual_ai but has no sideB');
    expect(d.fix).toContain("Add `sideB: { label: 'Reviewer', prompt: '<prompt name>' }` to agents/a.ts");
  });

  it("requires a toolDescription with exposeAsTool", async () => {
    const snap = await loadFiles({ ...baseGraph(), "agents/a.ts": agent("a", `exposeAsTool: true, sideA: { prompt: "p" }`) });
    expect(single(snap, "agents/a.ts", "toolDescription").message).toContain("has exposeAsTool: true but no toolDescription");
  });

  it("warns when a dual_ai agent has no maxSessionTurns, sessionStop or sessionFail", async () => {
    const snap = await loadFiles({ ...baseGraph(), "agents/a.ts": agent("a", `type: "dual_ai", sideA: { prompt: "p" }, sideB: { prompt: "p" }`) });
    const fields = diagnosticsOf(snap, "agents/a.ts").map((d) => [d.severity, d.field]);
    expect(fields).toEqual([
      ["warning", "maxSessionTurns"],
      ["warning", "sideA.sessionFail"],
      ["warning", "sideB.sessionStop"],
    ]);
  });

  it("reports session bindings and stopTool naming tools the side's prompt does not offer", async () => {
    const graph = subagentGraph();
    graph["agents/sub.ts"] = graph["agents/sub.ts"]!.replace(`sessionStatus: "status"`, `sessionStatus: "approve", stopTool: "t"`).replace(
      `sessionStop: { name: "approve"`,
      `sessionStop: { name: "fail"`,
    );
    const snap = await loadFiles(graph);
    const status = single(snap, "agents/sub.ts", "sideA.sessionStatus");
    expect(status.message).toBe(
      `Agent "sub" sideA.sessionStatus is tool "approve", but sideA's prompt "worker" does not offer it, so the model can never call it.`,
    );
    expect(status.fix).toBe("Add 'approve' to `tools` in prompts/worker.ts, or bind a tool that prompt offers (`fail` and `status`).");
    expect(single(snap, "agents/sub.ts", "sideB.sessionStop.name").message).toContain(`sideB's prompt "reviewer" does not offer it`);
    expect(single(snap, "agents/sub.ts", "sideA.stopTool").severity).toBe("error");
  });

  it("warns when messageProperty, attachmentsProperty or stopToolResponseProperty name absent argument fields", async () => {
    const graph = subagentGraph();
    graph["agents/sub.ts"] = graph["agents/sub.ts"]!
      .replace(`messageProperty: "summary"`, `messageProperty: "sumary"`)
      .replace(`attachmentsProperty: "files"`, `attachmentsProperty: "attachments"`)
      .replace(`sessionStatus: "status"`, `sessionStatus: "status", stopTool: "status", stopToolResponseProperty: "text"`);
    const snap = await loadFiles(graph);
    const msg = single(snap, "agents/sub.ts", "sideB.sessionStop.messageProperty");
    expect(msg.severity).toBe("warning");
    expect(msg.message).toContain('"sumary" is not a field of the args of tool "approve" (tools/approve.ts), whose fields are `summary` and `files`. Did you mean `summary`?');
    expect(single(snap, "agents/sub.ts", "sideB.sessionStop.attachmentsProperty").severity).toBe("warning");
    expect(single(snap, "agents/sub.ts", "sideA.stopToolResponseProperty").message).toContain('"text" is not a field of the args of tool "status"');
  });
});

describe("linking: prompt tool entries", () => {
  it("resolves each entry to tool, subprompt, handoff or subagent with normalised config", async () => {
    const graph = subagentGraph();
    graph["prompts/p.ts"] = prompt(
      "p",
      `tools: [{ name: "t", env: { REGION: "eu" } }, { name: "reviewer", includeErrors: false }, "desk",
        { name: "sub", blocking: false, initUserMessageProperty: "task", initAgentNameProperty: "label",
          resumable: { receives_messages: "side_a", maxInstances: 2 } }]`,
    );
    graph["agents/a.ts"] = agent("a", `sideA: { prompt: "worker" }`);
    const snap = await loadFiles(graph);
    expect(snap.diagnostics).toEqual([]);
    expect(resolvePromptTools(snap, "p")).toEqual([
      { kind: "tool", name: "t", index: 0, config: { env: { REGION: "eu" }, options: {} } },
      { kind: "subprompt", name: "reviewer", index: 1, config: { includeTextResponse: true, includeToolCalls: true, includeErrors: false } },
      { kind: "handoff", name: "desk", index: 2 },
      {
        kind: "subagent",
        name: "sub",
        index: 3,
        config: {
          blocking: false,
          immediate: false,
          initUserMessageProperty: "task",
          initAgentNameProperty: "label",
          resumable: { receives_messages: "side_a", maxInstances: 2, parentCommunication: "implicit" },
        },
      },
    ]);
    expect(resolvePromptTools(snap, "nope")).toBeUndefined();
  });

  it("defaults a subagent entry to blocking and non-resumable", async () => {
    const graph = subagentGraph();
    graph["prompts/p.ts"] = prompt("p", `tools: ["sub"]`);
    const snap = await loadFiles(graph);
    expect(resolvePromptTools(snap, "p")?.[0]).toEqual({
      kind: "subagent",
      name: "sub",
      index: 0,
      config: { blocking: true, immediate: false, resumable: false },
    });
  });

  it("reports a subagent config naming an ai_human agent or an agent not exposed as a tool", async () => {
    const graph = subagentGraph();
    graph["agents/hidden.ts"] = agent("hidden", `type: "dual_ai", maxSessionTurns: 2, sideA: { prompt: "worker", sessionFail: "fail" }, sideB: { prompt: "reviewer", sessionStop: "approve" }`);
    graph["prompts/p.ts"] = prompt("p", `tools: [{ name: "desk", blocking: true }, { name: "hidden", blocking: true }]`);
    const snap = await loadFiles(graph);
    const handoff = single(snap, "prompts/p.ts", "tools.0.blocking");
    expect(handoff.message).toBe('`blocking` is a subagent-only field, but "desk" is a handoff (ai_human agent), not a dual_ai agent exposed as a tool.');
    expect(handoff.fix).toContain(`make agent "desk" \`type: 'dual_ai'\``);
    const hidden = single(snap, "prompts/p.ts", "tools.1.name");
    expect(hidden.message).toBe('Prompt "p" offers agent "hidden" as a tool, but the agent is not exposed as a tool (exposeAsTool is not true).');
    expect(hidden.fix).toContain("Set `exposeAsTool: true` and a `toolDescription` in agents/hidden.ts");
  });

  it("reports subagent-only fields on a callable tool or subprompt entry, and warns about other misplaced fields", async () => {
    const graph = subagentGraph();
    graph["prompts/p.ts"] = prompt(
      "p",
      `tools: [{ name: "t", resumable: { receives_messages: "side_a" }, includeErrors: true }, { name: "reviewer", immediate: true, env: { A: "1" } }]`,
    );
    const snap = await loadFiles(graph);
    expect(single(snap, "prompts/p.ts", "tools.0.resumable")).toMatchObject({ severity: "error" });
    expect(single(snap, "prompts/p.ts", "tools.0.resumable").message).toContain('"t" is a callable tool');
    expect(single(snap, "prompts/p.ts", "tools.0.includeErrors")).toMatchObject({ severity: "warning" });
    expect(single(snap, "prompts/p.ts", "tools.1.immediate").message).toContain('"reviewer" is a subprompt');
    expect(single(snap, "prompts/p.ts", "tools.1.env").severity).toBe("warning");
  });

  it("warns when init*Property names a field absent from the target's requiredSchema", async () => {
    const graph = subagentGraph();
    graph["prompts/p.ts"] = prompt("p", `tools: [{ name: "sub", initUserMessageProperty: "tsk", initAgentNameProperty: "name" }, { name: "worker", initAttachmentsProperty: "files" }]`);
    const snap = await loadFiles(graph);
    const sub = single(snap, "prompts/p.ts", "tools.0.initUserMessageProperty");
    expect(sub.severity).toBe("warning");
    expect(sub.message).toBe(
      'initUserMessageProperty "tsk" is not a field of the requiredSchema of "worker", side A prompt of agent "sub" (prompts/worker.ts), whose fields are `task` and `label`. Did you mean `task`?',
    );
    expect(single(snap, "prompts/p.ts", "tools.1.initAttachmentsProperty").message).toContain('the requiredSchema of prompt "worker"');
    expect(single(snap, "prompts/p.ts", "tools.0.initAgentNameProperty").fix).toBe(
      "Use one of `task` and `label` for initAgentNameProperty, or add `name` to that requiredSchema.",
    );
  });

  it("reports an ambiguous tool name on the tool file and on the entry", async () => {
    const snap = await loadFiles({ ...baseGraph(), "tools/p.ts": tool(), "prompts/q.ts": prompt("q", `tools: ["p"]`) });
    expect(single(snap, "tools/p.ts", "").message).toBe(
      'Ambiguous tool name "p": tools/p.ts has the same name as prompts/p.ts, so a prompt\'s tools entry "p" could mean either.',
    );
    expect(single(snap, "prompts/q.ts", "tools.0").message).toContain('Ambiguous tool name "p" in prompt "q": it is both the callable tool tools/p.ts and the prompt prompts/p.ts.');
  });

  it("reports a name that is both a prompt and an agent exposed as a tool, only where it is offered", async () => {
    const graph = subagentGraph();
    graph["prompts/sub.ts"] = prompt("sub");
    graph["prompts/p.ts"] = prompt("p", `tools: ["sub"]`);
    const snap = await loadFiles(graph);
    expect(single(snap, "prompts/p.ts", "tools.0").message).toContain("is both prompt prompts/sub.ts (a subprompt) and agent agents/sub.ts");
    expect(diagnosticsOf(snap, "prompts/sub.ts")).toEqual([]);
  });

  it("rejects listing a name twice and listing the runtime's lifecycle tools", async () => {
    const snap = await loadFiles({ ...baseGraph(), "prompts/p.ts": prompt("p", `tools: ["t", "subagent_create", "t"]`) });
    expect(single(snap, "prompts/p.ts", "tools.2").message).toContain('lists "t" twice (tools.0 and tools.2)');
    expect(single(snap, "prompts/p.ts", "tools.1").message).toContain("a lifecycle tool the runtime adds by itself");
  });

  it("warns when a prompt offers more than 8 tools", async () => {
    const files: Record<string, string> = { ...baseGraph() };
    const names = Array.from({ length: 9 }, (_, i) => `t${i}`);
    for (const n of names) files[`tools/${n}.ts`] = tool();
    files["prompts/p.ts"] = prompt("p", `tools: ${JSON.stringify(names)}`);
    const snap = await loadFiles(files);
    const d = single(snap, "prompts/p.ts", "tools");
    expect(d.severity).toBe("warning");
    expect(d.message).toContain('Prompt "p" offers 9 tools (more than 8)');
    expect(d.fix).toContain("subagent or a subprompt");
  });

  it("refuses an env part that puts a secret variable into a prompt", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "tools/t.ts": tool(`variables: [{ name: "API_KEY", type: "secret", required: true }]`),
      "prompts/p.ts": prompt("p", `tools: ["t"]`).replace(`prompt: "You are p."`, `prompt: [{ type: "text", content: "key: " }, { type: "env", property: "API_KEY" }]`),
    });
    const d = single(snap, "prompts/p.ts", "prompt.1.property");
    expect(d.message).toBe(
      'Prompt "p" inserts variable "API_KEY" into its text (prompt.1), but "API_KEY" is declared secret in tools/t.ts: secret values must never be sent to a model.',
    );
    expect(d.fix).toContain("state.env('API_KEY')");
  });
});
