"use client";

import { useSyncExternalStore } from "react";
import { age } from "./tree-rows";

// One clock for every age on screen: a single interval, and a label re-renders only when its text changes.
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** "12 s", "4 min"…: how long ago `from` was, kept current. */
export function Age({ from }: { from: number }) {
  const label = useSyncExternalStore(
    subscribe,
    () => age(from, now),
    () => age(from, from),
  );
  return <span title="Age">{label}</span>;
}
