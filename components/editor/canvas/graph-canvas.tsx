"use client";

import {
  Background,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  useNodesState,
  useReactFlow,
  type Connection,
  type NodeChange,
  type Viewport,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from "react";
import type { GraphEdge, GraphNode, GraphProjection } from "@/shared/graph-projection";
import { edgeTypes } from "../edges/graph-edge";
import type { EditorFlowEdge } from "../edges/edge-data";
import { layoutGraph, type Positions } from "../layout/elk-layout";
import { NODE_WIDTH, nodeHeight } from "../layout/node-size";
import { keepPlaced } from "../layout/stable-positions";
import type { EditorFlowNode } from "../nodes/node-data";
import { nodeTypes } from "../nodes/node-types";
import type { Selection } from "../state/editor-state";
import { CANVAS_CSS, LOD_MIN_NODES, useLevelOfDetail } from "./level-of-detail";
import { KIND_COLOR, OverviewCanvas } from "./overview-canvas";
import { useDarkClass } from "./use-dark";
import { fitClear, inClearView } from "./fit-padding";
import { LargeMiniMap } from "./large-minimap";
import { useCulledNodes } from "./use-culled-nodes";
import { hiddenByCollapse, neighbourhood } from "./visibility";

export interface ConnectRequest {
  source: GraphNode;
  target: GraphNode;
  sourceHandle: string | null;
}

interface Props {
  graph: GraphProjection;
  selection: Selection;
  collapsed: ReadonlySet<string>;
  rootId?: string;
  readonly: boolean;
  /** Center on this node (changes of `nonce` re-center). */
  focus: { nodeId: string; nonce: number } | null;
  /** Focus mode: this node and its neighbours stand out, the rest is dimmed, and the view fits them. */
  spotlight?: string | null;
  /** Changes of this number discard every place and lay the whole graph out again (then fit it in view). */
  relayout?: number;
  onSelect(selection: Selection): void;
  onConnect(request: ConnectRequest): void;
}

/** Which connections a drag may make: side → prompt, prompt → tool / prompt / agent / model, model → model. */
export function connectionAllowed(source: GraphNode | undefined, target: GraphNode | undefined, handle: string | null | undefined): boolean {
  if (!source || !target || source.id === target.id || !source.writable) return false;
  if (source.kind === "agent") return Boolean(handle?.startsWith("side-")) && target.kind === "prompt";
  if (source.kind === "prompt") return ["tool", "prompt", "agent", "model"].includes(target.kind);
  if (source.kind === "model") return target.kind === "model";
  return false;
}

/** A node's box before React Flow has measured it. */
const flowNodeSize = (n: EditorFlowNode) => ({ width: n.measured?.width ?? NODE_WIDTH[n.data.node.kind], height: n.measured?.height ?? nodeHeight(n.data.node) });

/** The zoom a search centres a node at: full text detail. */
const FOCUS_ZOOM = 1.15;

export function GraphCanvas({ graph, selection, collapsed, rootId, readonly, focus, relayout = 0, spotlight = null, onSelect, onConnect }: Props) {
  const flow = useReactFlow<EditorFlowNode, EditorFlowEdge>();
  const dark = useDarkClass();
  const [positions, setPositions] = useState<Positions>(new Map());
  const [layoutMs, setLayoutMs] = useState<number | null>(null);
  const [layoutSource, setLayoutSource] = useState<"elk" | "cache" | "">("");
  const [elkMs, setElkMs] = useState(0);
  const [laidOut, setLaidOut] = useState(0);
  const firstFit = useRef(true);
  const wrapper = useRef<HTMLDivElement>(null);
  // Tells the culling of a large graph where the view settled after a programmatic move (set below).
  const settleRef = useRef<() => void>(() => {});
  const large = graph.nodes.length > LOD_MIN_NODES;
  const { lod, overview, overviewAt, onMove, onMoveStart, onMoveEnd } = useLevelOfDetail(large, wrapper);
  useEffect(() => onMove(null, flow.getViewport()), [onMove, flow]);
  const byId = useMemo(() => new Map(graph.nodes.map((n) => [n.id, n])), [graph.nodes]);

  const { hidden, hiddenCount } = useMemo(() => hiddenByCollapse(graph.nodes, graph.edges, collapsed, rootId), [graph, collapsed, rootId]);
  const visibleNodes = useMemo(() => graph.nodes.filter((n) => !hidden.has(n.id)), [graph.nodes, hidden]);
  const visibleEdges = useMemo(() => graph.edges.filter((e) => !hidden.has(e.source) && !hidden.has(e.target)), [graph.edges, hidden]);
  const withChildren = useMemo(() => new Set(graph.edges.map((e) => e.source)), [graph.edges]);
  // In the overview the DOM nodes are not displayed: a click on the pane selects the node drawn under it.
  const onPaneClick = useCallback(
    (event: ReactMouseEvent) => {
      if (lod.current === "low") {
        const p = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
        const hit = visibleNodes.find((n) => {
          const at = positions.get(n.id);
          return at && p.x >= at.x && p.x <= at.x + NODE_WIDTH[n.kind] && p.y >= at.y && p.y <= at.y + nodeHeight(n);
        });
        if (hit) return onSelect({ type: "node", id: hit.id });
      }
      onSelect(null);
    },
    [flow, visibleNodes, positions, onSelect],
  );

  // Lay out again when the structure (visible nodes, their sizes, edges) changes; plain value edits keep positions.
  const structure = useMemo(
    () => visibleNodes.map((n) => `${n.id}:${nodeHeight(n)}`).join("|") + "#" + visibleEdges.map((e) => `${e.source}>${e.target}`).join("|"),
    [visibleNodes, visibleEdges],
  );
  const latest = useRef({ visibleNodes, visibleEdges, positions });
  latest.current = { visibleNodes, visibleEdges, positions };
  const [reveal, setReveal] = useState<{ ids: string[] } | null>(null);
  const relaidOut = useRef(relayout);
  useEffect(() => {
    let cancelled = false;
    const { visibleNodes: ns, visibleEdges: es } = latest.current;
    const sized = ns.map((n) => ({ id: n.id, width: NODE_WIDTH[n.kind], height: nodeHeight(n) }));
    void layoutGraph({
      nodes: ns.map((n) => ({ id: n.id, width: NODE_WIDTH[n.kind], height: nodeHeight(n), ...(n.agent ? { ports: n.agent.sides.map((s) => `side-${s.key}`) } : {}) })),
      edges: es.map((e) => ({ id: e.id, source: e.source, target: e.target, ...(e.sourceHandle ? { sourcePort: e.sourceHandle } : {}) })),
    }).then(({ positions: fresh, cached, ms, elkMs }) => {
      if (cancelled) return;
      // Only nodes without a place get one: a save, an edit or an expand never moves what the user sees.
      const tidy = relaidOut.current !== relayout;
      relaidOut.current = relayout;
      if (tidy) firstFit.current = true;
      const { positions: next, placed } = keepPlaced(tidy ? new Map() : latest.current.positions, fresh, sized, es);
      setLayoutSource(cached ? "cache" : "elk");
      setElkMs(Math.round(elkMs));
      setPositions(next);
      setLayoutMs(Math.round(ms));
      setLaidOut((x) => x + 1);
      if (placed.length > 0 && !firstFit.current) setReveal({ ids: placed });
    });
    return () => {
      cancelled = true;
    };
  }, [structure, relayout]);

  const lit = useMemo(() => (spotlight ? neighbourhood(spotlight, graph.edges) : null), [spotlight, graph.edges]);
  const [nodes, setNodes, onNodesChangeBase] = useNodesState<EditorFlowNode>([]);
  const highlighted = focus?.nodeId;
  useEffect(() => {
    setNodes((prev) => {
      const old = new Map(prev.map((n) => [n.id, n]));
      // A node without a place is not given to React Flow yet: piled up at the origin, every node of a large graph
      // would count as in view and mount at once (and stay mounted when the overview freezes what is mounted).
      return visibleNodes.flatMap((n): EditorFlowNode[] => {
        const before = old.get(n.id);
        const position = positions.get(n.id) ?? before?.position;
        if (!position) return [];
        return [{
          id: n.id,
          type: n.kind,
          position,
          initialWidth: NODE_WIDTH[n.kind],
          initialHeight: nodeHeight(n),
          data: { node: n, collapsed: collapsed.has(n.id), hiddenCount: hiddenCount.get(n.id) ?? 0, hasChildren: withChildren.has(n.id), highlighted: highlighted === n.id, ...(lit && !lit.has(n.id) ? { dimmed: true } : {}) },
          selected: selection?.type === "node" && selection.id === n.id,
          ariaLabel: `${n.kind} ${n.name}${n.issues.length ? `, ${n.issues.length} problem${n.issues.length === 1 ? "" : "s"}` : ""}`,
          ...(before?.measured ? { measured: before.measured } : {}),
        }];
      });
    });
  }, [visibleNodes, positions, collapsed, hiddenCount, withChildren, selection, highlighted, lit, setNodes]);

  const onNodesChange = useCallback(
    (changes: NodeChange<EditorFlowNode>[]) => {
      onNodesChangeBase(changes.filter((c) => c.type !== "select" && c.type !== "remove"));
      const moved = changes.filter((c) => c.type === "position" && c.position && !c.dragging);
      if (moved.length > 0) {
        setPositions((prev) => {
          const next = new Map(prev);
          for (const c of moved) if (c.type === "position" && c.position) next.set(c.id, c.position);
          return next;
        });
      }
    },
    [onNodesChangeBase],
  );

  const edges = useMemo(
    () =>
      visibleEdges.map(
        (e: GraphEdge): EditorFlowEdge => ({
          id: e.id,
          source: e.source,
          target: e.target,
          ...(e.sourceHandle ? { sourceHandle: e.sourceHandle } : {}),
          type: "graph",
          data: { edge: e, sourceName: byId.get(e.source)?.name ?? e.source, targetName: byId.get(e.target)?.name ?? e.target, ...(spotlight && e.source !== spotlight && e.target !== spotlight ? { dimmed: true } : {}) },
          selected: selection?.type === "edge" && selection.id === e.id,
          markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14 },
          ariaLabel: `${e.kind} edge from ${byId.get(e.source)?.name} to ${byId.get(e.target)?.name}`,
        }),
      ),
    [visibleEdges, byId, selection, spotlight],
  );

  // Entering focus mode fits the focused node and its neighbours in view.
  useEffect(() => {
    if (!spotlight) return;
    const { positions: p, visibleNodes: ns, visibleEdges: es } = latest.current;
    const lit = neighbourhood(spotlight, es);
    const boxes = ns.flatMap((n) => (lit.has(n.id) && p.has(n.id) ? [{ ...p.get(n.id)!, width: NODE_WIDTH[n.kind], height: nodeHeight(n) }] : []));
    if (boxes.length === 0) return;
    const x = Math.min(...boxes.map((b) => b.x));
    const y = Math.min(...boxes.map((b) => b.y));
    const bounds = { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
    requestAnimationFrame(() => void flow.fitBounds(bounds, { padding: 0.15, duration: 200 }).then(() => settleRef.current()));
  }, [spotlight, flow]);

  // The first layout (and a tidy-up) fits the graph in view, clear of the minimap; later layouts keep the viewport.
  useEffect(() => {
    if (laidOut === 0 || !firstFit.current) return;
    firstFit.current = false;
    const { positions: p, visibleNodes: ns } = latest.current;
    const boxes = ns.flatMap((n) => (p.has(n.id) ? [{ ...p.get(n.id)!, width: NODE_WIDTH[n.kind], height: nodeHeight(n) }] : []));
    const graphBox = boxes.length ? { width: Math.max(...boxes.map((b) => b.x + b.width)) - Math.min(...boxes.map((b) => b.x)), height: Math.max(...boxes.map((b) => b.y + b.height)) - Math.min(...boxes.map((b) => b.y)) } : { width: 1, height: 1 };
    const pane = { width: wrapper.current?.clientWidth ?? 1, height: wrapper.current?.clientHeight ?? 1 };
    requestAnimationFrame(
      () =>
        // Hidden nodes too: a large graph hides what is out of view (their sizes are the initial ones).
        // Near the wide/tall boundary one padded side can still leave a corner node under the minimap: then both.
        void fitClear(flow, boxes, graphBox, pane).then(() => {
          onMove(null, flow.getViewport());
          settleRef.current();
          // How many fits have landed (journeys wait for the first before they look).
          wrapper.current?.setAttribute("data-fitted", String(Number(wrapper.current.getAttribute("data-fitted") ?? 0) + 1));
        }),
    );
  }, [laidOut, flow, onMove]);

  // Nodes placed after the first layout (created, or added by a save) are brought into view at the current zoom.
  useEffect(() => {
    if (!reveal) return;
    const id = reveal.ids.find((i) => latest.current.positions.has(i));
    const node = id ? latest.current.visibleNodes.find((n) => n.id === id) : undefined;
    if (!node || !id) return;
    const at = latest.current.positions.get(id)!;
    const box = { ...at, width: NODE_WIDTH[node.kind], height: nodeHeight(node) };
    const pane = { width: wrapper.current?.clientWidth ?? 0, height: wrapper.current?.clientHeight ?? 0 };
    const viewport = flow.getViewport();
    if (!inClearView(box, viewport, pane)) void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom: viewport.zoom, duration: 200 }).then(() => settleRef.current());
  }, [reveal, flow]);

  // From the laid-out positions, not React Flow's nodes: in the overview most nodes are not in React Flow at all.
  useEffect(() => {
    if (!focus) return;
    const at = latest.current.positions.get(focus.nodeId);
    const node = latest.current.visibleNodes.find((n) => n.id === focus.nodeId);
    if (!at || !node) return;
    const measured = flow.getNode(focus.nodeId)?.measured;
    const w = measured?.width ?? NODE_WIDTH[node.kind];
    const h = measured?.height ?? nodeHeight(node);
    // Close enough that every detail is readable (see text-detail.ts).
    void flow.setCenter(at.x + w / 2, at.y + h / 2, { zoom: FOCUS_ZOOM, duration: 200 }).then(() => settleRef.current());
  }, [focus, flow]);

  // What React Flow mounts of a large graph: what is near the view (see use-culled-nodes.ts).
  const culled = useCulledNodes({ large, overview, nodes, edges, size: flowNodeSize, wrapper });
  const { settle } = culled;
  const onSettled = useCallback(
    (event: unknown, viewport: Viewport) => {
      onMoveEnd(event, viewport);
      settle(viewport);
    },
    [onMoveEnd, settle],
  );
  settleRef.current = () => settle(flow.getViewport());

  const isValidConnection = useCallback(
    (c: Connection | EditorFlowEdge) => !readonly && connectionAllowed(byId.get(c.source), byId.get(c.target), c.sourceHandle),
    [byId, readonly],
  );

  return (
    <div ref={wrapper} data-editor-canvas="" data-lod="high" className="relative h-full w-full" data-testid="editor-canvas" data-layout-ms={layoutMs ?? ""} data-layout-source={layoutSource} data-layout-elk-ms={elkMs} data-layout-count={laidOut} data-layout-placed={reveal?.ids.length ?? 0} data-node-count={visibleNodes.length}>
      <style>{CANVAS_CSS}</style>
      <ReactFlow<EditorFlowNode, EditorFlowEdge>
        nodes={culled.nodes}
        onMove={onMove}
        onMoveStart={onMoveStart}
        onMoveEnd={onSettled}
        edges={culled.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onNodeClick={(_, n) => onSelect({ type: "node", id: n.id })}
        onEdgeClick={(_, e) => onSelect({ type: "edge", id: e.id })}
        onPaneClick={onPaneClick}
        onConnect={(c) => {
          const source = byId.get(c.source);
          const target = byId.get(c.target);
          if (source && target && connectionAllowed(source, target, c.sourceHandle)) onConnect({ source, target, sourceHandle: c.sourceHandle ?? null });
        }}
        isValidConnection={isValidConnection}
        nodesConnectable={!readonly}
        deleteKeyCode={null}
        minZoom={0.05}
        maxZoom={2}
        // In full detail only what is in view is in the DOM. In the overview the DOM nodes are not displayed, and the
        // ones mounted when it began stay mounted (no others): panning mounts nothing, and crossing the threshold
        // does not mount every node of the graph at once (that was the stutter at the threshold).
        onlyRenderVisibleElements={large && !overview}
        proOptions={{ hideAttribution: true }}
        colorMode={dark ? "dark" : "light"}
      >
        {large ? null : <Background gap={24} size={1} />}
        {large ? <OverviewCanvas nodes={visibleNodes} edges={visibleEdges} positions={positions} selectedId={selection?.type === "node" ? selection.id : null} dark={dark} activeAt={overviewAt} /> : null}
        <Controls showInteractive={false} position="bottom-left" />
        {large ? (
          <LargeMiniMap nodes={visibleNodes} positions={positions} dark={dark} />
        ) : (
          <MiniMap pannable zoomable position="bottom-right" nodeColor={(n) => KIND_COLOR[(n as EditorFlowNode).data.node.kind]} ariaLabel="Overview of the graph" />
        )}
      </ReactFlow>
      {layoutMs === null ? (
        <p role="status" className="absolute top-3 left-1/2 -translate-x-1/2 rounded bg-white/90 px-3 py-1 text-sm shadow dark:bg-slate-900/90">
          Laying out {visibleNodes.length} nodes…
        </p>
      ) : null}
    </div>
  );
}
