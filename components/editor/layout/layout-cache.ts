/**
 * Laid-out positions, remembered per graph structure (nodes, their sizes and ports, edges): in memory and in
 * localStorage, so that re-opening the editor on an unchanged registry, or toggling collapse back, shows the graph
 * without running ELK again. A few structures are kept; the oldest is dropped.
 */
import type { LayoutInput, Positions } from "./elk-layout";

const PREFIX = "editor-layout:";
const INDEX = "editor-layout-index";
const KEEP = 6;
const memory = new Map<string, Positions>();

/** FNV-1a over the structure; with the node and edge counts in the key, a collision is not a practical concern. */
export function layoutKey(input: LayoutInput): string {
  const text =
    input.nodes.map((n) => `${n.id}:${n.width}x${n.height}${n.ports ? `[${n.ports.join(",")}]` : ""}`).join("|") +
    "#" +
    input.edges.map((e) => `${e.source}${e.sourcePort ? `.${e.sourcePort}` : ""}>${e.target}`).join("|");
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${input.nodes.length}-${input.edges.length}-${(h >>> 0).toString(36)}-${text.length}`;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function cachedLayout(key: string): Positions | null {
  const hit = memory.get(key);
  if (hit) return hit;
  const raw = storage()?.getItem(PREFIX + key);
  if (!raw) return null;
  try {
    const entries = JSON.parse(raw) as Array<[string, number, number]>;
    const positions: Positions = new Map(entries.map(([id, x, y]) => [id, { x, y }]));
    memory.set(key, positions);
    return positions;
  } catch {
    return null;
  }
}

export function storeLayout(key: string, positions: Positions): void {
  memory.set(key, positions);
  if (memory.size > KEEP) memory.delete(memory.keys().next().value!);
  const store = storage();
  if (!store) return;
  try {
    const index = (JSON.parse(store.getItem(INDEX) ?? "[]") as string[]).filter((k) => k !== key);
    index.push(key);
    while (index.length > KEEP) store.removeItem(PREFIX + index.shift()!);
    store.setItem(PREFIX + key, JSON.stringify([...positions].map(([id, p]) => [id, Math.round(p.x), Math.round(p.y)])));
    store.setItem(INDEX, JSON.stringify(index));
  } catch {
    // Storage full or disabled: the memory cache still works for this page.
  }
}
