import { describe, expect, it } from "vitest";
import type { NodeFacts } from "@/shared/inspector/tree-shape";
import { applyPatches, fromSnapshot } from "./live-tree";
import type { PendingSpawn } from "./types";

const usage = (n: number) => ({ inputTokens: n, outputTokens: 0, cost: n / 1000, requests: 1 });
function fact(id: string, parentId: string | null, createdAt: number, extra: Partial<NodeFacts> = {}): NodeFacts {
  return {
    id,
    parentId,
    agentId: "a",
    agentTitle: "A",
    name: id,
    threadStatus: "idle",
    stopReason: null,
    registryStatus: parentId ? "running" : null,
    customStatus: false,
    blocking: parentId ? false : null,
    resumable: parentId ? true : null,
    communication: parentId ? "implicit" : null,
    immediate: false,
    optional: null,
    spawnGroupId: null,
    toolName: null,
    createdAt,
    lastActivityAt: createdAt,
    own: usage(10),
    ...extra,
  };
}
const pending = (requestId: string, parentId: string): PendingSpawn => ({ requestId, parentId, agent: "v", name: null, missing: ["K"], required: ["K"], createdAt: 0 });
const patch = (p: { facts?: NodeFacts[]; removed?: string[]; pendingOf?: string[]; pending?: PendingSpawn[] }) => ({
  facts: p.facts ?? [],
  removed: p.removed ?? [],
  pendingOf: p.pendingOf ?? [],
  pending: p.pending ?? [],
});

describe("the browser's live tree", () => {
  const snap = {
    rootId: "r",
    truncated: false,
    pending: [pending("p1", "a")],
    // Out of order on purpose: the tree is assembled depth first, children oldest first.
    facts: [fact("b", "r", 3), fact("a1", "a", 4), fact("r", null, 1), fact("a", "r", 2)],
  };

  it("assembles a snapshot depth first with depths, counts and roll-ups", () => {
    const t = fromSnapshot(snap);
    expect(t.nodes.map((n) => `${n.id}@${n.depth}`)).toEqual(["r@0", "a@1", "a1@2", "b@1"]);
    expect(t.byId.get("r")).toMatchObject({ childCount: 2, descendants: 3, subtree: { inputTokens: 40, requests: 4 } });
    expect(t.byId.get("a")).toMatchObject({ childCount: 1, descendants: 1, subtree: { inputTokens: 20 } });
  });

  it("applies a status change, new usage and a spawn; only the changed path gets new objects", () => {
    const t = fromSnapshot(snap);
    const next = applyPatches(t, [
      patch({ facts: [fact("a1", "a", 4, { registryStatus: "Round 2", customStatus: true })] }),
      patch({ facts: [fact("b", "r", 3, { own: usage(100) }), fact("b1", "b", 5)] }),
    ]);
    expect(next.byId.get("a1")).toMatchObject({ registryStatus: "Round 2", customStatus: true });
    expect(next.byId.get("r")!.subtree).toMatchObject({ inputTokens: 140, requests: 5 });
    expect(next.nodes.map((n) => n.id)).toEqual(["r", "a", "a1", "b", "b1"]);
    // `a` changed in nothing it shows (its subtree sum is the same), so memoized rows skip it.
    expect(next.byId.get("a")).toBe(t.byId.get("a"));
    expect(next.byId.get("b")).not.toBe(t.byId.get("b"));
    expect(next.pending).toBe(t.pending);
  });

  it("drops removed threads with their subtree, and replaces the pending spawns of the patched parents", () => {
    const t = fromSnapshot(snap);
    const next = applyPatches(t, [patch({ removed: ["a"], pendingOf: ["a", "b"], pending: [pending("p2", "b")] })]);
    expect(next.nodes.map((n) => n.id)).toEqual(["r", "b"]);
    expect(next.byId.get("r")).toMatchObject({ descendants: 1, subtree: { requests: 2 } });
    expect(next.pending.map((p) => p.requestId)).toEqual(["p2"]);
  });

  it("returns the same tree for patches that change nothing", () => {
    const t = fromSnapshot(snap);
    expect(applyPatches(t, [patch({})])).toBe(t);
  });
});
