import type { Metadata } from "next";
import { ThreadsScreen, type ThreadFilters } from "@/components/threads/threads-screen";

export const metadata: Metadata = { title: "Threads" };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
const statuses = new Set(["running", "idle", "terminated"]);

export default async function ThreadsPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const status = one(sp.status);
  const initial: ThreadFilters = {
    q: one(sp.q),
    agent: one(sp.agent) || one(sp.agent_id),
    status: statuses.has(status) ? (status as ThreadFilters["status"]) : "",
  };
  return <ThreadsScreen initial={initial} />;
}
