"use client";

import { useLayoutEffect, useState, type RefObject } from "react";

export interface RowRange {
  start: number;
  end: number;
}

const same = (a: RowRange, b: RowRange) => a.start === b.start && a.end === b.end;

/** The rows [start, end) to draw for a scroll position: those in view and `overscan` more on each side. */
export function rowRange(scrollTop: number, height: number, rowHeight: number, count: number, overscan: number): RowRange {
  const first = Math.floor(scrollTop / rowHeight);
  const last = Math.ceil((scrollTop + height) / rowHeight);
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + overscan) };
}

/**
 * Virtualization for rows of one fixed height: the component re-renders only when the range of rows to draw changes
 * (a row scrolls in or out), not on every scroll event, so a scroll frame usually costs no script at all.
 */
export function useFixedRows(scrollRef: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan = 6): RowRange {
  const [range, setRange] = useState<RowRange>(() => ({ start: 0, end: Math.min(count, 24) }));
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let height = el.clientHeight;
    let current: RowRange | null = null;
    const update = () => {
      const next = rowRange(el.scrollTop, height, rowHeight, count, overscan);
      if (current && same(current, next)) return;
      current = next;
      setRange((prev) => (same(prev, next) ? prev : next));
    };
    update();
    el.addEventListener("scroll", update, { passive: true });
    const resize = new ResizeObserver(() => {
      height = el.clientHeight;
      update();
    });
    resize.observe(el);
    return () => {
      el.removeEventListener("scroll", update);
      resize.disconnect();
    };
  }, [scrollRef, count, rowHeight, overscan]);
  return range;
}
