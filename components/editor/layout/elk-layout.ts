/**
 * Automatic layout with elkjs: layered, top-down. Runs in a web worker when the browser allows it (falls back to the
 * main thread). Large graphs use ELK's fast settings so that 500 nodes lay out in well under two seconds.
 */
import type { ElkNode, LayoutOptions } from "elkjs/lib/elk-api";
import { foldLeaves } from "./leaf-grid";
import { cachedLayout, layoutKey, storeLayout } from "./layout-cache";

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
// The canvas routes edges itself (orthogonal, graph-edge.tsx): ELK's own routing is not used, so the cheap one.
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
/** Time ELK itself spent on the last layout (in the worker), without waiting for the worker or ELK to load. */
let lastElkMs = 0;

function getWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL("./elk.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<{ id: number; result?: ElkNode; error?: string; ms?: number }>) => {
      const p = pending.get(event.data.id);
      if (!p) return;
      pending.delete(event.data.id);
      lastElkMs = event.data.ms ?? 0;
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
  const started = performance.now();
  const result = await new ELK().layout(graph);
  lastElkMs = performance.now() - started;
  return result;
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

/** Above this many nodes the layout uses ELK's fast settings, a spanning forest of the edges, and folded leaves. */
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

/**
 * Starts the worker and runs a tiny layout in it, so that loading and initialising ELK (most of the first layout's
 * cost) overlaps with loading the page and its data. Only a tiny one: the worker runs one layout at a time, and the
 * real layout must not wait behind a bigger warm-up. Runs once per page.
 */
let warmedUp = false;
export function warmUpLayout(): void {
  if (warmedUp || typeof window === "undefined") return;
  warmedUp = true;
  const nodes = ["a", "b", "c"].map((id) => ({ id, width: 200, height: 80 }));
  void layoutGraph({ nodes, edges: [{ id: "ab", source: "a", target: "b" }, { id: "ac", source: "a", target: "c" }] }, { cache: false }).catch(() => undefined);
}

export interface LayoutResult {
  positions: Positions;
  /** True when the positions came from the layout cache (the same structure was laid out before). */
  cached: boolean;
  /** Time from the call to the positions (ELK in the worker, or the cache look-up). */
  ms: number;
  /** Of that, the time ELK computed (the rest is waiting for the worker: loading ELK, earlier layouts). */
  elkMs: number;
}

/** Positions (top-left corners) of the nodes, from the cache when this structure was laid out before. */
export async function layoutGraph(input: LayoutInput, options: { cache?: boolean } = {}): Promise<LayoutResult> {
  const started = performance.now();
  const key = options.cache === false ? null : layoutKey(input);
  const hit = key ? cachedLayout(key) : null;
  if (hit) return { positions: hit, cached: true, ms: performance.now() - started, elkMs: 0 };
  const positions = await runLayout(input);
  if (key) storeLayout(key, positions);
  return { positions, cached: false, ms: performance.now() - started, elkMs: lastElkMs };
}

async function runLayout(input: LayoutInput): Promise<Positions> {
  const ids = new Set(input.nodes.map((n) => n.id));
  const large = input.nodes.length > LARGE_GRAPH;
  const forest = large ? foldLeaves(input.nodes, spanningForest(input.nodes.map((n) => n.id), input.edges)) : null;
  const nodes = forest?.nodes ?? input.nodes;
  const edges = forest?.edges ?? input.edges;
  const graph: ElkNode = {
    id: "root",
    layoutOptions: { ...BASE, ...(large ? FAST : QUALITY) },
    children: nodes.map((n) => ({
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
  return forest ? forest.unfold(positions) : positions;
}

// As soon as the editor's code loads, before the page hydrates and asks for the definitions.
warmUpLayout();
