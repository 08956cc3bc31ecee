"use client";

import { createContext, useContext } from "react";

/** Actions node components call; passed through context so that node data stays stable and nodes stay memoized. */
export interface CanvasActions {
  toggleCollapse(nodeId: string): void;
  /** Select the node's definition and focus the field an issue concerns. */
  jumpToField(nodeId: string, defId: string, field: string): void;
  tryIt(agent: string): void;
  readonly: boolean;
}

export const CanvasActionsContext = createContext<CanvasActions>({
  toggleCollapse: () => {},
  jumpToField: () => {},
  tryIt: () => {},
  readonly: true,
});

export function useCanvasActions(): CanvasActions {
  return useContext(CanvasActionsContext);
}
