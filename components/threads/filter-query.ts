/** The thread list's filters and sort order, and their form in the address (shared by the page and the screen). */
export interface ThreadFilters {
  q: string;
  agent: string;
  status: "" | "running" | "idle" | "terminated" | "awaiting_approval";
  sort: "activity" | "created";
  /** "" everyone, "me", or a user id (administrators). */
  owner: string;
  /** YYYY-MM-DD, or "". */
  from: string;
  to: string;
}

export const NO_FILTERS: ThreadFilters = {
  q: "",
  agent: "",
  status: "",
  sort: "activity",
  owner: "",
  from: "",
  to: "",
};

/** The filters as the address's query string (only what differs from no filter), so a filtered list can be shared. */
export function filtersToQuery(f: ThreadFilters): string {
  const p = new URLSearchParams();
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.agent) p.set("agent", f.agent);
  if (f.status) p.set("status", f.status);
  if (f.owner) p.set("owner", f.owner);
  if (f.from) p.set("from", f.from);
  if (f.to) p.set("to", f.to);
  if (f.sort !== "activity") p.set("sort", f.sort);
  return p.toString();
}

const STATUSES = new Set(["running", "idle", "terminated", "awaiting_approval"]);
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters a query string names; anything unknown or malformed is left out. */
export function filtersFromQuery(get: (key: string) => string): ThreadFilters {
  const status = get("status");
  const from = get("from");
  const to = get("to");
  return {
    q: get("q"),
    agent: get("agent") || get("agent_id"),
    status: STATUSES.has(status) ? (status as ThreadFilters["status"]) : "",
    sort: get("sort") === "created" ? "created" : "activity",
    owner: get("owner"),
    from: DAY_RE.test(from) ? from : "",
    to: DAY_RE.test(to) ? to : "",
  };
}
