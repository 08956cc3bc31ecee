import { describe, expect, it } from "vitest";
import { NOT_ADMIN_REASON, viewForCaller, type EditorDefinition, type EditorView } from "./editor-view";

const def = (id: string, writable: boolean, reason?: string): EditorDefinition => ({
  id,
  kind: "prompts",
  name: id,
  file: id,
  hash: "h",
  value: { name: id },
  writable,
  ...(reason ? { reason } : {}),
  loaded: true,
  facts: {},
});
const view = (readonly: boolean): EditorView => ({
  version: 1,
  loadedAt: "2026-01-01T00:00:00.000Z",
  agentsDir: "/agents",
  readonly,
  ...(readonly ? { readonlyBecause: "server" as const } : {}),
  definitions: [def("prompts/a.ts", !readonly), def("tools/t.ts", false, "tools are code")],
  diagnostics: [],
});

describe("the editor view per caller", () => {
  it("is read-only for a caller who may not write, with the reason on every writable definition", () => {
    const seen = viewForCaller(view(false), false);
    expect(seen.readonly).toBe(true);
    expect(seen.readonlyBecause).toBe("role");
    expect(seen.definitions.map((d) => [d.writable, d.reason])).toEqual([
      [false, NOT_ADMIN_REASON],
      [false, "tools are code"],
    ]);
  });

  it("is unchanged for an administrator, and keeps the server's reason on a read-only server", () => {
    const v = view(false);
    expect(viewForCaller(v, true)).toBe(v);
    const ro = view(true);
    expect(viewForCaller(ro, false)).toBe(ro);
    expect(viewForCaller(ro, false).readonlyBecause).toBe("server");
  });
});
