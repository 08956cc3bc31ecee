import type { Persistence, Stores } from "@/server/runtime/ports";
import type { Db, PrismaClient } from "./client";
import { effectStore } from "./repositories/effects";
import { subagentStore, variableRequestStore } from "./repositories/subagents";
import { envStore, fileStore } from "./repositories/env-files";
import { eventLog, llmLogStore } from "./repositories/events";
import { messageStore, queueStore } from "./repositories/messages";
import { threadStore } from "./repositories/threads";
import { workStore } from "./repositories/work";

function stores(db: Db, root: PrismaClient | null): Stores {
  return {
    threads: threadStore(db),
    messages: messageStore(db),
    queue: queueStore(db),
    events: eventLog(db),
    llmLogs: llmLogStore(db),
    work: workStore(db, root),
    env: envStore(db),
    files: fileStore(db),
    effects: effectStore(db),
    subagents: subagentStore(db),
    variableRequests: variableRequestStore(db),
  };
}

/** The runtime's ports over Prisma: every store, plus transactions that hand out the same stores bound to one tx. */
export function createPersistence(prisma: PrismaClient): Persistence {
  return {
    ...stores(prisma, prisma),
    transaction<T>(fn: (tx: Stores) => Promise<T>): Promise<T> {
      return prisma.$transaction((tx) => fn(stores(tx, null)), { maxWait: 30_000, timeout: 60_000 });
    },
  };
}
