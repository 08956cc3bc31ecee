import type { NodeFacts } from "./tree-shape";

/** An open scoped-variable request: a spawn that waits for variables, shown under its parent. */
export interface PendingSpawnView {
  requestId: string;
  parentId: string;
  agent: string;
  /** The name the child thread will get. */
  name: string | null;
  missing: string[];
  required: string[];
  createdAt: number;
}

/** The first message of the live inspector feed: the whole tree as facts (the browser assembles it). */
export interface SnapshotBatch {
  kind: "snapshot";
  rootId: string;
  facts: NodeFacts[];
  pending: PendingSpawnView[];
  truncated: boolean;
}

/**
 * A change: the new facts of the threads whose row changed (spawned children included), threads gone, the pending
 * spawns of `pendingOf` (replacing what the browser had for those parents), every thread that had any event (for the
 * details on screen), and whether the timeline moved.
 */
export interface PatchBatch {
  kind: "patch";
  facts: NodeFacts[];
  removed: string[];
  pendingOf: string[];
  pending: PendingSpawnView[];
  threadIds: string[];
  timeline: boolean;
}
