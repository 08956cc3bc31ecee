import { describe, expect, it } from "vitest";
import { projectGraph } from "../graph-projection";
import { definitionRows, endpointRows, searchRows } from "./definition-list";
import type { EditorDefinition, EditorView } from "./editor-view";

const def = (kind: EditorDefinition["kind"], name: string, value: EditorDefinition["value"]): EditorDefinition => ({
  id: `${kind}/${name}.ts`,
  kind,
  name,
  file: `${kind}/${name}.ts`,
  hash: "h",
  value,
  writable: true,
  loaded: true,
  facts: {},
});

const view: EditorView = {
  version: 1,
  loadedAt: "",
  agentsDir: "/x",
  readonly: false,
  definitions: [
    def("agents", "desk", { name: "desk", type: "ai_human", sideA: { label: "Clerk", prompt: "clerk" } }),
    def("prompts", "clerk", { name: "clerk", toolDescription: "Answers.", model: "fast", prompt: [{ type: "text", content: "Hi " }, { type: "include", prompt: "style" }], tools: ["count"] }),
    def("prompts", "style", { name: "style", toolDescription: "House style.", model: "fast", prompt: "Be brief." }),
    def("models", "fast", { name: "fast", provider: "openai", model: "gpt-4.1-mini", inputPrice: 0.4, outputPrice: 1.6, capabilities: { supportsToolCalls: true } }),
    def("tools", "count", { name: "count", description: "Counts words." }),
  ],
  diagnostics: [{ severity: "error", code: "x", file: "tools/count.ts", path: "", message: "broken" } as unknown as EditorView["diagnostics"][number]],
};
const graph = projectGraph({ definitions: view.definitions, diagnostics: view.diagnostics });

describe("definition list rows", () => {
  it("say what uses each definition, from the graph's edges", () => {
    const prompts = definitionRows("prompts", view, graph);
    expect(prompts.map((r) => r.name)).toEqual(["clerk", "style"]);
    expect(prompts[0]!.usedBy).toEqual([{ kind: "agent", name: "desk", as: "side A" }]);
    expect(prompts[0]!.summary).toBe("model fast · 1 tool · Answers.");
    expect(prompts[1]!.usedBy).toEqual([{ kind: "prompt", name: "clerk", as: "include" }]);
    const models = definitionRows("models", view, graph);
    expect(models[0]!.summary).toContain("openai · gpt-4.1-mini · $0.4 / $1.6 per M tokens");
    expect(models[0]!.usedBy.map((u) => u.name).sort()).toEqual(["clerk", "style"]);
    const tools = definitionRows("tools", view, graph);
    expect(tools[0]).toMatchObject({ name: "count", summary: "Counts words.", problems: 1, usedBy: [{ kind: "prompt", name: "clerk", as: "tool" }] });
  });

  it("search every word in name, file, summary and users", () => {
    const prompts = definitionRows("prompts", view, graph);
    expect(searchRows(prompts, "desk").map((r) => r.name)).toEqual(["clerk"]);
    expect(searchRows(prompts, "include clerk").map((r) => r.name)).toEqual(["style"]);
    expect(searchRows(prompts, "")).toHaveLength(2);
    expect(searchRows(prompts, "nothing here")).toEqual([]);
  });

  it("list endpoints and controllers by method and route", () => {
    const rows = endpointRows({ endpoints: [{ kind: "endpoint", method: "GET", route: "/api/threads/:threadId/notes/:slug", file: "api/notes/[slug].ts" }], controllers: [{ kind: "controller", method: "POST", route: "/api/controllers/hook", file: "controllers/hook.post.ts" }] }, []);
    expect(rows.map((r) => `${r.name} · ${r.summary}`)).toEqual(["GET /api/threads/:threadId/notes/:slug · thread endpoint", "POST /api/controllers/hook · controller"]);
  });
});
