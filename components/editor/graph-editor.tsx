"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { ReactFlowProvider } from "@xyflow/react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { nodeId, projectGraph, reachable, type GraphNode } from "@/shared/graph-projection";
import { isEditableKind } from "@/shared/editor/doc";
import { validateDoc } from "@/shared/editor/doc-validate";
import { pendingChangeCount, saveStatus } from "@/shared/editor/pending-changes";
import { GraphCanvas, type ConnectRequest } from "./canvas/graph-canvas";
import { CanvasActionsContext, type CanvasActions } from "./canvas/canvas-context";
import { EditorDialogs } from "./dialogs/editor-dialogs";
import { warmUpLayout } from "./layout/elk-layout";
import { SaveErrors, type SaveError } from "./save-errors";
import { SidePanel } from "./panel/side-panel";
import { EditorContext, type DialogState, type EditorApi } from "./state/editor-context";
import { InputReportContext, useInputReports } from "./state/input-reports";
import { editorReducer, initialEditorState, isDirty } from "./state/editor-state";
import { connect, type Outcome } from "./state/graph-actions";
import { dirtyIds, projectionDefinitions, saveChanges } from "./state/selectors";
import { ReadonlyBanner } from "./readonly-banner";
import { ReviewDialog } from "./dialogs/review-dialog";
import { TryDock } from "./try-dock";
import { invalidBeforeSave, saveErrorOf, useSaveReview } from "./state/use-save-review";
import { Toolbar } from "./toolbar";

/** The visual agent-graph editor: canvas, side panel, dialogs; edits the definition files through tRPC. */
export function GraphEditor({ root }: { root?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [state, dispatch] = useReducer(editorReducer, initialEditorState);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState<{ nodeId: string; nonce: number } | null>(null);
  const [message, setMessage] = useState<{ text: string; tone: "info" | "error" } | null>(null);
  const [saveError, setSaveError] = useState<SaveError | null>(null);
  const [relayout, setRelayout] = useState(0);
  const [spotlight, setSpotlight] = useState<string | null>(null);
  const [tryDock, setTryDock] = useState<{ agent: string; threadId: string; draft: boolean } | null>(null);
  const saving = useRef(false);

  useEffect(() => warmUpLayout(), []);
  const view = useQuery(trpc.editor.view.queryOptions());
  useEffect(() => {
    if (view.data) dispatch({ type: "view", view: view.data });
  }, [view.data]);
  useSubscription(
    trpc.editor.changes.subscriptionOptions(undefined, {
      onData: (v) => {
        if (!saving.current) dispatch({ type: "view", view: v });
      },
    }),
  );
  const save = useMutation(trpc.editor.save.mutationOptions());

  const readonly = state.view?.readonly ?? true;
  const docs = state.docs;
  const fullGraph = useMemo(
    () => projectGraph({ definitions: projectionDefinitions(docs), diagnostics: state.view?.diagnostics ?? [], dirty: dirtyIds(docs) }),
    [docs, state.view?.diagnostics],
  );
  const rootId = root ? nodeId("agent", root) : undefined;
  const graph = useMemo(() => {
    if (!rootId) return fullGraph;
    const keep = new Set(fullGraph.nodes.filter((n) => docs[n.defId]?.file === null).map((n) => n.id));
    return reachable(fullGraph, rootId, keep);
  }, [fullGraph, rootId, docs]);
  const nodesById = useMemo(() => new Map(graph.nodes.map((n) => [n.id, n])), [graph.nodes]);
  const { refused, report } = useInputReports();
  const dirtyDocs = useMemo(() => Object.values(docs).filter(isDirty), [docs]);
  const pending = useMemo(() => pendingChangeCount(dirtyDocs), [dirtyDocs]);
  const status = useMemo(() => {
    const invalidFields = dirtyDocs.reduce((n, d) => n + (!d.deleted && isEditableKind(d.kind) && d.value ? validateDoc(d.kind, d.value).length : 0), 0);
    return saveStatus({ readonly, changes: pending, invalidInputs: refused.size, invalidFields });
  }, [dirtyDocs, pending, readonly, refused]);

  const notify = useCallback((text: string, tone: "info" | "error" = "info") => setMessage({ text, tone }), []);
  const run = useCallback(
    (outcome: Outcome) => {
      if (!outcome.ok) {
        notify(outcome.message, "error");
        return false;
      }
      dispatch(outcome.action);
      if (outcome.select) dispatch({ type: "select", selection: { type: "edge", id: outcome.select } });
      return true;
    },
    [notify],
  );

  const { review, requestSave, closeReview, reviewing } = useSaveReview(docs, readonly, setSaveError);
  const doSave = useCallback(async () => {
    if (readonly || saving.current) return;
    const invalid = invalidBeforeSave(docs);
    if (invalid) return setSaveError(invalid);
    const changes = saveChanges(docs);
    if (changes.length === 0) return;
    saving.current = true;
    setSaveError(null);
    try {
      const r = await save.mutateAsync({ changes });
      dispatch({ type: "view", view: r.view, reset: true });
      const n = r.result.written.length + r.result.deleted.length;
      notify(n === 0 ? "Nothing to write: the files already say that." : `Saved ${n} file${n === 1 ? "" : "s"}: ${[...r.result.written, ...r.result.deleted].join(", ")}`);
    } catch (error) {
      setSaveError(saveErrorOf(error));
    } finally {
      saving.current = false;
      closeReview();
    }
  }, [docs, readonly, save, notify, closeReview]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing = target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable);
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === "s") {
        e.preventDefault();
        void requestSave();
      } else if (mod && !typing && e.key.toLowerCase() === "z") {
        e.preventDefault();
        dispatch({ type: e.shiftKey ? "redo" : "undo" });
      } else if (e.key === "Escape" && !typing) {
        setSpotlight(null);
      } else if (mod && !typing && e.key.toLowerCase() === "y") {
        e.preventDefault();
        dispatch({ type: "redo" });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [requestSave]);

  const focusNode = useCallback(
    (node: GraphNode) => {
      // Expand the collapsed nodes that hide it.
      setCollapsed((prev) => {
        if (prev.size === 0) return prev;
        const next = new Set(prev);
        for (const e of graph.edges) if (e.target === node.id) next.delete(e.source);
        return next;
      });
      dispatch({ type: "select", selection: { type: "node", id: node.id } });
      setFocus((f) => ({ nodeId: node.id, nonce: (f?.nonce ?? 0) + 1 }));
    },
    [graph.edges],
  );

  const canvasActions = useMemo<CanvasActions>(
    () => ({
      readonly,
      toggleCollapse: (id) =>
        setCollapsed((prev) => {
          const next = new Set(prev);
          if (next.has(id)) next.delete(id);
          else next.add(id);
          return next;
        }),
      jumpToField: (id, defId, field) => {
        dispatch({ type: "select", selection: { type: "node", id } });
        dispatch({ type: "focus", defId, path: field });
      },
      tryIt: (agent) => setDialog({ type: "try", agent }),
    }),
    [readonly],
  );

  const api = useMemo<EditorApi>(() => ({ state, dispatch, graph, nodesById, readonly, run, openDialog: setDialog, notify }), [state, graph, nodesById, readonly, run, notify]);
  const agents = useMemo(() => fullGraph.nodes.filter((n) => n.kind === "agent").map((n) => n.name).sort(), [fullGraph.nodes]);

  if (view.isError) {
    return (
      <p role="alert" className="p-6 text-sm text-red-700 dark:text-red-300">
        Could not load the definitions: {view.error.message}
      </p>
    );
  }

  return (
    <EditorContext.Provider value={api}>
      <InputReportContext.Provider value={report}>
      <div className="relative left-1/2 -mt-6 -mb-6 flex h-[calc(100vh-3.15rem)] w-screen -translate-x-1/2 flex-col" data-testid="graph-editor" data-readonly={readonly}>
        {readonly && state.view ? <ReadonlyBanner view={state.view} /> : null}
        <Toolbar
          rootAgent={root}
          agents={agents}
          onRoot={(agent) => router.replace(agent ? `/editor?root=${encodeURIComponent(agent)}` : "/editor")}
          onSearch={focusNode}
          status={status}
          saving={save.isPending || reviewing}
          onSave={() => void requestSave()}
          onCollapseAll={() => setCollapsed(new Set(graph.nodes.filter((n) => n.kind === "agent" && n.id !== rootId).map((n) => n.id)))}
          onExpandAll={() => setCollapsed(new Set())}
          onTidy={() => setRelayout((n) => n + 1)}
          spotlight={spotlight && nodesById.has(spotlight) ? (nodesById.get(spotlight)?.name ?? null) : null}
          onSpotlight={() => setSpotlight((s) => (s ? null : state.selection?.type === "node" ? state.selection.id : null))}
        />
        {saveError ? <SaveErrors error={saveError} onClose={() => setSaveError(null)} /> : null}
        {message ? (
          <div role={message.tone === "error" ? "alert" : "status"} data-testid="editor-message" className={`flex items-center gap-2 border-b px-4 py-1.5 text-sm ${message.tone === "error" ? "border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100" : "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"}`}>
            <span className="flex-1">{message.text}</span>
            <button type="button" aria-label="Dismiss" className="px-1" onClick={() => setMessage(null)}>
              ✕
            </button>
          </div>
        ) : null}
        <div className="flex min-h-0 flex-1">
          <div className="min-w-0 flex-1">
            {state.view ? (
              <CanvasActionsContext.Provider value={canvasActions}>
                <ReactFlowProvider>
                  <GraphCanvas
                    key={rootId ?? ""}
                    relayout={relayout}
                    spotlight={spotlight && nodesById.has(spotlight) ? spotlight : null}
                    graph={graph}
                    selection={state.selection}
                    collapsed={collapsed}
                    {...(rootId ? { rootId } : {})}
                    readonly={readonly}
                    focus={focus}
                    onSelect={(selection) => dispatch({ type: "select", selection })}
                    onConnect={(c: ConnectRequest) => run(connect(docs, c.source, c.target, c.sourceHandle))}
                  />
                </ReactFlowProvider>
              </CanvasActionsContext.Provider>
            ) : (
              <p className="p-6 text-sm text-slate-500">Loading the definitions…</p>
            )}
          </div>
          {tryDock ? <TryDock key={tryDock.threadId} {...tryDock} onClose={() => setTryDock(null)} /> : <SidePanel />}
        </div>
        <EditorDialogs
          dialog={dialog}
          onClose={() => setDialog(null)}
          pending={pending}
          draft={dialog?.type === "try" && !readonly && pending > 0 ? saveChanges(docs) : null}
          onDraftError={setSaveError}
          onTry={(agent, threadId, draft) => setTryDock({ agent, threadId, draft })}
        />
        {review ? <ReviewDialog files={review} saving={save.isPending} onConfirm={() => void doSave()} onClose={closeReview} /> : null}
      </div>
      </InputReportContext.Provider>
    </EditorContext.Provider>
  );
}
