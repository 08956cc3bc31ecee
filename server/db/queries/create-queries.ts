import type { PrismaClient } from "../client";
import { apiKeyQueries } from "./api-keys";
import { chatSnapshotQueries } from "./chat-snapshot";
import { experimentQueries } from "./experiments";
import { healthQueries } from "./health";
import { inspectorNodeQueries } from "./inspector-node";
import { inspectorTimelineQueries } from "./inspector-timeline";
import { inspectorTreeQueries } from "./inspector-tree";
import { messageUsage } from "./message-usage";
import { openVariableRequests } from "./pending-spawns";
import { requestLogNeighbors } from "./request-log-neighbors";
import { sessionQueries } from "./sessions";
import { threadAccessQueries } from "./thread-access";
import { threadCardQueries } from "./thread-cards";
import { threadList, type ThreadListInput } from "./thread-list";
import { usageQueries } from "./usage-totals";
import { userQueries } from "./users";

/**
 * The read models (and account writes) the API works with, bound to one database client: the API reads and writes
 * through these and the runtime's stores, never through Prisma or SQL of its own. Every query runs the same on SQLite
 * and PostgreSQL.
 */
export function createQueries(prisma: PrismaClient) {
  return {
    users: userQueries(prisma),
    sessions: sessionQueries(prisma),
    apiKeys: apiKeyQueries(prisma),
    threadAccess: threadAccessQueries(prisma),
    threadList: (input: ThreadListInput) => threadList(prisma, input),
    threadCards: threadCardQueries(prisma),
    chatSnapshot: chatSnapshotQueries(prisma),
    usage: usageQueries(prisma),
    inspectorTree: inspectorTreeQueries(prisma),
    inspectorTimeline: inspectorTimelineQueries(prisma),
    inspectorNode: inspectorNodeQueries(prisma),
    openVariableRequests: (parentIds: string[]) => openVariableRequests(prisma, parentIds),
    health: healthQueries(prisma),
    experiments: experimentQueries(prisma),
    messageUsage: (threadId: string) => messageUsage(prisma, threadId),
    requestLogNeighbors: (log: { id: string; threadId: string; startedAt: Date }) => requestLogNeighbors(prisma, log),
  };
}

export type Queries = ReturnType<typeof createQueries>;
