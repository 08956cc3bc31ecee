import { describe, expect, it } from "vitest";
import { age, statusTone, visibleRows } from "./tree-rows";
import type { TreeNode } from "./types";

const node = (id: string, depth: number, extra: Partial<TreeNode> = {}) => ({ id, depth, ...extra }) as TreeNode;

describe("inspector tree rows", () => {
  const tree = {
    nodes: [node("root", 0), node("a", 1), node("a1", 2), node("a2", 2), node("b", 1)],
    pending: [{ requestId: "r1", parentId: "a", agent: "x", name: null, missing: ["K"], required: ["K"], createdAt: 0 }],
  };
  it("lists nodes depth first with pending spawns right under their parent", () => {
    expect(visibleRows(tree, new Set()).map((r) => (r.kind === "node" ? r.node.id : `pending:${r.pending.requestId}`))).toEqual([
      "root",
      "a",
      "pending:r1",
      "a1",
      "a2",
      "b",
    ]);
  });
  it("hides the descendants (and pending spawns) of a collapsed node", () => {
    expect(visibleRows(tree, new Set(["a"])).map((r) => (r.kind === "node" ? r.node.id : "p"))).toEqual(["root", "a", "b"]);
    expect(visibleRows(tree, new Set(["root"])).map((r) => (r.kind === "node" ? r.node.id : "p"))).toEqual(["root"]);
  });
  it("tells custom sessionStatus text from the runtime's statuses", () => {
    expect(statusTone({ registryStatus: "Round 2: intro too long", threadStatus: "running", customStatus: true })).toBe("custom");
    expect(statusTone({ registryStatus: "failed", threadStatus: "idle", customStatus: false })).toBe("failed");
    expect(statusTone({ registryStatus: null, threadStatus: "idle", customStatus: false })).toBe("idle");
  });
  it("formats ages", () => {
    expect(age(0, 5_000)).toBe("5 s");
    expect(age(0, 125_000)).toBe("2 min");
    expect(age(0, 3 * 3600_000)).toBe("3 h");
  });
});
