import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

export type RegistryOverview = inferRouterOutputs<AppRouter>["registry"]["overview"];
export type AgentSummary = RegistryOverview["agents"][number];
export type Diagnostic = RegistryOverview["diagnostics"][number];
