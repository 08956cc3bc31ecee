"use client";

import { createContext, useContext } from "react";

export interface ChildStatus {
  id: string;
  status: string;
  agent_id: string;
  name: string | null;
  stop_reason?: string | null;
}

/** Live status of the child threads the conversation's cards link to. */
export const ChildStatusContext = createContext<ReadonlyMap<string, ChildStatus>>(new Map());

export function useChildStatus(id: string | null): ChildStatus | undefined {
  const map = useContext(ChildStatusContext);
  return id ? map.get(id) : undefined;
}
