"use client";

import { useId, type ReactNode } from "react";
import { useExpanded } from "./expanded-context";
import { ChevronIcon } from "./icons";

/** A card with a header button that shows or hides its body (state survives virtualization). */
export function Collapsible({
  id,
  header,
  children,
  className = "",
  testId,
}: {
  id: string;
  header: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  const [open, toggle] = useExpanded(id);
  const bodyId = useId();
  return (
    <div data-testid={testId} data-open={open} className={`overflow-hidden rounded-lg border ${className}`}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={toggle}
        className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-black/[0.03] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 dark:hover:bg-white/[0.04]"
      >
        <ChevronIcon className={`shrink-0 text-slate-500 dark:text-slate-400 transition-transform ${open ? "rotate-90" : ""}`} />
        {header}
      </button>
      <div id={bodyId} hidden={!open} className="border-t border-inherit px-3 py-2 text-sm">
        {open ? children : null}
      </div>
    </div>
  );
}
