"use client";

import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

interface Expanded {
  isOpen(id: string): boolean;
  toggle(id: string): void;
}

const Ctx = createContext<Expanded>({ isOpen: () => false, toggle: () => {} });

/**
 * Which collapsible cards are open, kept above the virtualized list so a card scrolled out of view (and unmounted)
 * is still open when it comes back.
 */
export function ExpandedProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback((id: string) => {
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const value = useMemo(() => ({ isOpen: (id: string) => open.has(id), toggle }), [open, toggle]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useExpanded(id: string): [boolean, () => void] {
  const ctx = useContext(Ctx);
  return [ctx.isOpen(id), () => ctx.toggle(id)];
}
