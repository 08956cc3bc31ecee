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
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from "react";
import type { GraphEdge, GraphNode, GraphProjection } from "@/shared/graph-projection";
import { edgeTypes } from "../edges/graph-edge";
import type { EditorFlowEdge } from "../edges/edge-data";
import { layoutGraph, type Positions } from "../layout/elk-layout";
import { NODE_WIDTH, nodeHeight } from "../layout/node-size";
import type { EditorFlowNode } from "../nodes/node-data";
import { nodeTypes } from "../nodes/node-types";
import type { Selection } from "../state/editor-state";
import { CANVAS_CSS, LOD_MIN_NODES, useLevelOfDetail } from "./level-of-detail";
import { KIND_COLOR, OverviewCanvas } from "./overview-canvas";
import { useDarkClass } from "./use-dark";
import { hiddenByCollapse } from "./visibility";

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

export function GraphCanvas({ graph, selection, collapsed, rootId, readonly, focus, onSelect, onConnect }: Props) {
  const flow = useReactFlow<EditorFlowNode, EditorFlowEdge>();
  const dark = useDarkClass();
  const [positions, setPositions] = useState<Positions>(new Map());
  const [layoutMs, setLayoutMs] = useState<number | null>(null);
  const [layoutSource, setLayoutSource] = useState<"elk" | "cache" | "">("");
  const [elkMs, setElkMs] = useState(0);
  const [laidOut, setLaidOut] = useState(0);
  const firstFit = useRef(true);
  const wrapper = useRef<HTMLDivElement>(null);
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
  const latest = useRef({ visibleNodes, visibleEdges });
  latest.current = { visibleNodes, visibleEdges };
  useEffect(() => {
    let cancelled = false;
    const { visibleNodes: ns, visibleEdges: es } = latest.current;
    void layoutGraph({
      nodes: ns.map((n) => ({ id: n.id, width: NODE_WIDTH[n.kind], height: nodeHeight(n), ...(n.agent ? { ports: n.agent.sides.map((s) => `side-${s.key}`) } : {}) })),
      edges: es.map((e) => ({ id: e.id, source: e.source, target: e.target, ...(e.sourceHandle ? { sourcePort: e.sourceHandle } : {}) })),
    }).then(({ positions: p, cached, ms, elkMs }) => {
      if (cancelled) return;
      setLayoutSource(cached ? "cache" : "elk");
      setElkMs(Math.round(elkMs));
      setPositions(p);
      setLayoutMs(Math.round(ms));
      setLaidOut((x) => x + 1);
    });
    return () => {
      cancelled = true;
    };
  }, [structure]);

  const [nodes, setNodes, onNodesChangeBase] = useNodesState<EditorFlowNode>([]);
  const highlighted = focus?.nodeId;
  useEffect(() => {
    setNodes((prev) => {
      const old = new Map(prev.map((n) => [n.id, n]));
      return visibleNodes.map((n): EditorFlowNode => {
        const before = old.get(n.id);
        return {
          id: n.id,
          type: n.kind,
          position: positions.get(n.id) ?? before?.position ?? { x: 0, y: 0 },
          data: { node: n, collapsed: collapsed.has(n.id), hiddenCount: hiddenCount.get(n.id) ?? 0, hasChildren: withChildren.has(n.id), highlighted: highlighted === n.id },
          selected: selection?.type === "node" && selection.id === n.id,
          ariaLabel: `${n.kind} ${n.name}${n.issues.length ? `, ${n.issues.length} problem${n.issues.length === 1 ? "" : "s"}` : ""}`,
          ...(before?.measured ? { measured: before.measured } : {}),
        };
      });
    });
  }, [visibleNodes, positions, collapsed, hiddenCount, withChildren, selection, highlighted, setNodes]);

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
          data: { edge: e, sourceName: byId.get(e.source)?.name ?? e.source, targetName: byId.get(e.target)?.name ?? e.target },
          selected: selection?.type === "edge" && selection.id === e.id,
          markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14 },
          ariaLabel: `${e.kind} edge from ${byId.get(e.source)?.name} to ${byId.get(e.target)?.name}`,
        }),
      ),
    [visibleEdges, byId, selection],
  );

  useEffect(() => {
    if (laidOut === 0 || !firstFit.current) return;
    firstFit.current = false;
    requestAnimationFrame(() => void flow.fitView({ padding: 0.1, duration: 0 }).then(() => onMove(null, flow.getViewport())));
  }, [laidOut, flow, onMove]);

  useEffect(() => {
    if (!focus) return;
    const node = flow.getNode(focus.nodeId);
    if (!node) return;
    const w = node.measured?.width ?? NODE_WIDTH[node.data.node.kind];
    const h = node.measured?.height ?? nodeHeight(node.data.node);
    void flow.setCenter(node.position.x + w / 2, node.position.y + h / 2, { zoom: 1, duration: 200 });
  }, [focus, flow]);

  const isValidConnection = useCallback(
    (c: Connection | EditorFlowEdge) => !readonly && connectionAllowed(byId.get(c.source), byId.get(c.target), c.sourceHandle),
    [byId, readonly],
  );

  return (
    <div ref={wrapper} data-editor-canvas="" data-lod="high" className="relative h-full w-full" data-testid="editor-canvas" data-layout-ms={layoutMs ?? ""} data-layout-source={layoutSource} data-layout-elk-ms={elkMs} data-layout-count={laidOut} data-node-count={visibleNodes.length}>
      <style>{CANVAS_CSS}</style>
      <ReactFlow<EditorFlowNode, EditorFlowEdge>
        nodes={nodes}
        onMove={onMove}
        onMoveStart={onMoveStart}
        onMoveEnd={onMoveEnd}
        edges={edges}
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
        // In full detail only what is in view is in the DOM. In the overview the DOM nodes are not displayed: all
        // stay mounted, so that panning does not mount and unmount nodes at the edges of the view at every frame.
        onlyRenderVisibleElements={large && !overview}
        proOptions={{ hideAttribution: true }}
        colorMode={dark ? "dark" : "light"}
      >
        {large ? null : <Background gap={24} size={1} />}
        {large ? <OverviewCanvas nodes={visibleNodes} edges={visibleEdges} positions={positions} selectedId={selection?.type === "node" ? selection.id : null} dark={dark} activeAt={overviewAt} /> : null}
        <Controls showInteractive={false} position="bottom-left" />
        <MiniMap pannable zoomable position="bottom-right" nodeColor={(n) => KIND_COLOR[(n as EditorFlowNode).data.node.kind]} ariaLabel="Overview of the graph" />
      </ReactFlow>
      {layoutMs === null ? (
        <p role="status" className="absolute top-3 left-1/2 -translate-x-1/2 rounded bg-white/90 px-3 py-1 text-sm shadow dark:bg-slate-900/90">
          Laying out {visibleNodes.length} nodes…
        </p>
      ) : null}
    </div>
  );
}
