import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPatches, fromSnapshot } from "@/components/inspector/live-tree";
import { testDatabaseKind } from "@/server/db/test-database";
import { addChildThread, addRequestLog, seedTree, setRegistryStatus } from "@/tests/helpers/seed-threads";
import { countSqliteStatements } from "@/tests/helpers/sqlite-statements";
import { fixtureAgents, startTestApp, type TestApp } from "@/tests/helpers/test-app";
import { factsOf } from "./node-facts";
import { inspectorTree, treeSnapshot } from "./tree";

/** The statement counter hooks the SQLite driver; on PostgreSQL only the results are compared. */
const countsStatements = testDatabaseKind() === "sqlite";

let t: TestApp;
let sql: ReturnType<typeof countSqliteStatements>;
beforeAll(async () => {
  sql = countSqliteStatements();
  t = await startTestApp({ agentsSource: fixtureAgents });
});
afterAll(async () => {
  await t?.close();
});

describe("inspector tree queries", () => {
  it("reads a 200-child, 5-level tree in a constant number of statements, with depths and roll-ups", async () => {
    const { root, threads } = await seedTree(t, 200, 4);
    sql.reset();
    const tree = await inspectorTree(t.app, root);
    // The root's existence check, one recursive statement for every thread's facts, one for pending spawns.
    if (countsStatements) expect(sql.reads().length, sql.reads().join("\n")).toBeLessThanOrEqual(3);
    expect(tree.nodes).toHaveLength(threads.length);
    expect(tree.nodes[0]).toMatchObject({ id: root, depth: 0, descendants: 204, childCount: 200 });
    expect(tree.nodes[0]!.subtree).toMatchObject({ inputTokens: 205 * 100, outputTokens: 205 * 20, requests: 205 });
    expect(tree.nodes[0]!.subtree.cost).toBeCloseTo(0.205, 9);
    expect(Math.max(...tree.nodes.map((n) => n.depth))).toBe(5);
    const first = tree.nodes[1]!;
    expect(first).toMatchObject({ name: "Check 1", depth: 1, descendants: 4, registryStatus: "running", blocking: true, resumable: true });
    expect(first.subtree.requests).toBe(5);
    expect(tree.nodes.find((n) => n.name === "Check 3")).toMatchObject({ registryStatus: "Step 2", customStatus: true });
    // Depth first: the chain under the first child comes right after it.
    expect(tree.nodes.slice(2, 6).map((n) => n.name)).toEqual(["Level 2", "Level 3", "Level 4", "Level 5"]);
  });

  it("patches only the changed threads and gives the same tree as a full read", async () => {
    const { root, threads } = await seedTree(t, 30, 2);
    const snap = await treeSnapshot(t.app, root);
    const before = fromSnapshot(snap);
    const changed = threads[7]!.id;
    await setRegistryStatus(t, changed, "Round 2: checking");
    await addRequestLog(t, changed, { inputTokens: 7, outputTokens: 3, cost: 0.5 });
    const spawned = randomUUID();
    await addChildThread(t, spawned, changed, "New one");
    sql.reset();
    const facts = await factsOf(t.app, [changed, spawned]);
    if (countsStatements) expect(sql.reads()).toHaveLength(1);
    const after = applyPatches(before, [{ facts, removed: [], pendingOf: [], pending: [] }]);
    const full = await inspectorTree(t.app, root);
    expect(after.nodes.map((n) => [n.id, n.depth, n.registryStatus, n.customStatus, n.descendants, n.subtree.requests, n.subtree.cost])).toEqual(
      full.nodes.map((n) => [n.id, n.depth, n.registryStatus, n.customStatus, n.descendants, n.subtree.requests, n.subtree.cost]),
    );
    // Untouched rows keep their identity (memoized rows skip them); the changed one and its ancestors do not.
    const unchanged = threads[12]!.id;
    expect(after.byId.get(unchanged)).toBe(before.byId.get(unchanged));
    expect(after.byId.get(changed)).not.toBe(before.byId.get(changed));
    expect(after.byId.get(root)!.subtree.requests).toBe(before.byId.get(root)!.subtree.requests + 1);
    expect(after.byId.get(spawned)).toMatchObject({ parentId: changed, depth: 2, name: "New one", registryStatus: null });
  });
});
