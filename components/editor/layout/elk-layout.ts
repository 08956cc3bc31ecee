/**
 * Automatic layout with elkjs: layered, top-down. Runs in a web worker when the browser allows it (falls back to the
 * main thread). Large graphs use ELK's fast settings so that 500 nodes lay out in well under two seconds.
 */
import type { ElkNode, LayoutOptions } from "elkjs/lib/elk-api";

export interface LayoutInput {
  /** `ports`: handles on the bottom side, left to right (an agent's sides), so that side A's prompt goes left. */
  nodes: Array<{ id: string; width: number; height: number; ports?: string[] }>;
  edges: Array<{ id: string; source: string; target: string; sourcePort?: string }>;
}

export type Positions = Map<string, { x: number; y: number }>;

const BASE: LayoutOptions = {
  "elk.algorithm": "layered",
  "elk.direction": "DOWN",
  "elk.spacing.nodeNode": "36",
  "elk.layered.spacing.nodeNodeBetweenLayers": "70",
  "elk.spacing.componentComponent": "60",
  "elk.edgeRouting": "POLYLINE",
};
const QUALITY: LayoutOptions = { "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF" };
const FAST: LayoutOptions = {
  "elk.layered.layering.strategy": "LONGEST_PATH",
  "elk.layered.thoroughness": "1",
  "elk.layered.nodePlacement.strategy": "SIMPLE",
  "elk.layered.crossingMinimization.greedySwitch.type": "OFF",
  "elk.layered.compaction.postCompaction.strategy": "NONE",
};

let worker: Worker | null | undefined;
let seq = 0;
const pending = new Map<number, { resolve: (g: ElkNode) => void; reject: (e: Error) => void }>();

function getWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL("./elk.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<{ id: number; result?: ElkNode; error?: string }>) => {
      const p = pending.get(event.data.id);
      if (!p) return;
      pending.delete(event.data.id);
      if (event.data.result) p.resolve(event.data.result);
      else p.reject(new Error(event.data.error ?? "layout failed"));
    };
    worker.onerror = () => {
      for (const p of pending.values()) p.reject(new Error("layout worker failed"));
      pending.clear();
      worker = null;
    };
  } catch {
    worker = null;
  }
  return worker;
}

async function runOnMainThread(graph: ElkNode): Promise<ElkNode> {
  const { default: ELK } = await import("elkjs/lib/elk.bundled.js");
  return new ELK().layout(graph);
}

async function run(graph: ElkNode): Promise<ElkNode> {
  const w = getWorker();
  if (!w) return runOnMainThread(graph);
  const id = ++seq;
  try {
    return await new Promise<ElkNode>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage({ id, graph });
    });
  } catch {
    return runOnMainThread(graph);
  }
}

/** Above this many nodes the layout uses ELK's fast settings and a spanning forest of the edges. */
export const LARGE_GRAPH = 150;

/**
 * The edges of a spanning forest, found breadth-first from the nodes nothing points to: a top-down tree from each
 * entry point. The other edges are still drawn; they just do not pull nodes across layers.
 */
export function spanningForest<E extends { source: string; target: string }>(nodeIds: readonly string[], edges: readonly E[]): E[] {
  const indegree = new Map<string, number>();
  const out = new Map<string, E[]>();
  for (const e of edges) {
    indegree.set(e.target, (indegree.get(e.target) ?? 0) + 1);
    out.set(e.source, [...(out.get(e.source) ?? []), e]);
  }
  const seen = new Set<string>();
  const kept: E[] = [];
  for (const start of [...nodeIds.filter((id) => !indegree.get(id)), ...nodeIds]) {
    if (seen.has(start)) continue;
    seen.add(start);
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      for (const e of out.get(queue[i]!) ?? []) {
        if (seen.has(e.target)) continue;
        seen.add(e.target);
        kept.push(e);
        queue.push(e.target);
      }
    }
  }
  return kept;
}

/** Loads ELK in the worker and runs a small layout, so that the first real layout does not pay for it. */
export function warmUpLayout(): void {
  const nodes = Array.from({ length: 40 }, (_, i) => ({ id: `w${i}`, width: 200, height: 80 }));
  const edges = nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: `w${Math.floor(i / 3)}`, target: n.id }));
  void layoutGraph({ nodes, edges }).catch(() => undefined);
  void layoutGraph({ nodes: [...nodes, ...nodes.map((n) => ({ ...n, id: `${n.id}x` }))], edges }).catch(() => undefined);
}

/** Positions (top-left corners) of the nodes. */
export async function layoutGraph(input: LayoutInput): Promise<Positions> {
  const ids = new Set(input.nodes.map((n) => n.id));
  const large = input.nodes.length > LARGE_GRAPH;
  const edges = large ? spanningForest(input.nodes.map((n) => n.id), input.edges) : input.edges;
  const graph: ElkNode = {
    id: "root",
    layoutOptions: { ...BASE, ...(large ? FAST : QUALITY) },
    children: input.nodes.map((n) => ({
      id: n.id,
      width: n.width,
      height: n.height,
      ...(n.ports?.length
        ? {
            layoutOptions: { "elk.portConstraints": "FIXED_ORDER" },
            // Ports on the south side are ordered clockwise (east to west): reverse the index.
            ports: n.ports.map((p, i) => ({ id: `${n.id}.${p}`, width: 1, height: 1, layoutOptions: { "elk.port.side": "SOUTH", "elk.port.index": String(n.ports!.length - 1 - i) } })),
          }
        : {}),
    })),
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target)
      .map((e) => ({ id: e.id, sources: [e.sourcePort ? `${e.source}.${e.sourcePort}` : e.source], targets: [e.target] })),
  };
  const result = await run(graph);
  const positions: Positions = new Map();
  for (const child of result.children ?? []) positions.set(child.id, { x: child.x ?? 0, y: child.y ?? 0 });
  return positions;
}
