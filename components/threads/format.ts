/** Small formatting helpers shared by the thread list and the conversation. */

/**
 * The last 8 characters of an id, what the UI shows of it. Ids are UUIDv7: their first characters are the creation
 * time, the same for every thread of the same minute, and their last ones random. The thread search matches any part
 * of an id, so this text finds its thread.
 */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(-8) : id;
}

/** "just now", "5 min ago", "3 h ago", "2 d ago", then the date. */
export function relativeTime(iso: string | number | Date, now = Date.now()): string {
  const t = new Date(iso).getTime();
  const s = Math.round((now - t) / 1000);
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 7) return `${d} d ago`;
  return new Date(t).toLocaleDateString();
}

export function absoluteTime(iso: string | number | Date): string {
  return new Date(iso).toLocaleString();
}

export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return "";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatTokens(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toLocaleString("en-US");
}

export function formatCost(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Markdown reduced to its words, for one-line previews. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?(```|$)/g, " ")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, "")
    .replace(/[*_~`|]+/g, "")
    .replace(/^\s*:?-{3,}:?\s*$/gm, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The tags a user reads: the runtime's own bookkeeping tags (`name:<instance name>`, which the thread's name already
 * shows) stay out of sight.
 */
export function visibleTags(tags: readonly string[]): string[] {
  return tags.filter((t) => !t.startsWith("name:"));
}
