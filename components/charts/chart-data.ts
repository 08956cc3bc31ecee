/** The fields of one LLM request (a timeline item of kind `llm`) the charts use. */
export interface RequestPoint {
  threadId: string;
  label: string;
  start: number;
  inputTokens: number | null;
  outputTokens: number | null;
  cost: number | null;
}

export interface CumulativePoint {
  /** Epoch milliseconds of the request. */
  at: number;
  /** Running totals over the subtree, and over the chosen thread alone. */
  subtreeCost: number;
  threadCost: number;
  subtreeTokens: number;
  threadTokens: number;
  /** This request's own tokens. */
  input: number;
  output: number;
}

/**
 * Running cost and token totals after each request of the subtree, oldest first: the subtree's totals and the chosen
 * thread's (which only grow on that thread's requests).
 */
export function cumulativeSeries(requests: readonly RequestPoint[], threadId: string): CumulativePoint[] {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  let subtreeCost = 0;
  let threadCost = 0;
  let subtreeTokens = 0;
  let threadTokens = 0;
  return sorted.map((r) => {
    const input = r.inputTokens ?? 0;
    const output = r.outputTokens ?? 0;
    const cost = r.cost ?? 0;
    subtreeCost += cost;
    subtreeTokens += input + output;
    if (r.threadId === threadId) {
      threadCost += cost;
      threadTokens += input + output;
    }
    return { at: r.start, subtreeCost, threadCost, subtreeTokens, threadTokens, input, output };
  });
}

export interface GroupTotals {
  key: string;
  requests: number;
  input: number;
  output: number;
  cost: number;
}

/** Totals per key (a model name, a thread id), most expensive first, then by most tokens. */
export function totalsBy(requests: readonly RequestPoint[], keyOf: (r: RequestPoint) => string): GroupTotals[] {
  const groups = new Map<string, GroupTotals>();
  for (const r of requests) {
    const key = keyOf(r);
    const g = groups.get(key) ?? { key, requests: 0, input: 0, output: 0, cost: 0 };
    g.requests += 1;
    g.input += r.inputTokens ?? 0;
    g.output += r.outputTokens ?? 0;
    g.cost += r.cost ?? 0;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.cost - a.cost || b.input + b.output - (a.input + a.output) || (a.key < b.key ? -1 : 1));
}

/**
 * An axis tick for a time: seconds since the first request when the whole run is shorter than two minutes (a fast run
 * would show the same clock time on every tick), otherwise the time of day on the viewer's clock.
 */
export function timeTick(at: number, first: number, last: number): string {
  if (last - first < 120_000) return `+${((at - first) / 1000).toFixed(1)} s`;
  return new Date(at).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}
