import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

export type ThreadList = inferRouterOutputs<AppRouter>["chat"]["threadList"];
export type ListedThread = ThreadList["threads"][number];
export type ThreadListInput = inferRouterInputs<AppRouter>["chat"]["threadList"];
export type AgentSummary = inferRouterOutputs<AppRouter>["registry"]["overview"]["agents"][number];

/** A listed thread with its children, for the nested list. */
export interface ThreadNode {
  thread: ListedThread;
  children: ThreadNode[];
}
