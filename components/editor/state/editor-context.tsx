"use client";

import { createContext, useContext, type Dispatch } from "react";
import type { GraphNode, GraphProjection } from "@/shared/graph-projection";
import type { EditorAction, EditorState } from "./editor-state";
import type { Outcome } from "./graph-actions";

export type DialogState =
  | { type: "new"; kind: "agents" | "prompts" | "models" }
  | { type: "tool" }
  | { type: "rename"; defId: string }
  | { type: "delete"; defId: string }
  | { type: "try"; agent: string }
  | null;

/** Everything the editor's panels and dialogs share. */
export interface EditorApi {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  graph: GraphProjection;
  nodesById: ReadonlyMap<string, GraphNode>;
  readonly: boolean;
  /** Applies an outcome of a canvas action, or shows why it was refused. */
  run(outcome: Outcome): boolean;
  openDialog(dialog: DialogState): void;
  notify(message: string, tone?: "info" | "error"): void;
}

export const EditorContext = createContext<EditorApi | null>(null);

export function useEditor(): EditorApi {
  const api = useContext(EditorContext);
  if (!api) throw new Error("useEditor needs the graph editor");
  return api;
}
