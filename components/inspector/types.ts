import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["inspector"];

export type InspectorTree = Outputs["tree"];
export type TreeNode = InspectorTree["nodes"][number];
export type PendingSpawn = InspectorTree["pending"][number];
export type NodeDetail = Outputs["node"];
export type DetailMessage = NodeDetail["messages"][number];
export type Timeline = Outputs["timeline"];
export type TimelineItem = Timeline["items"][number];
export type LlmLog = Outputs["log"];
