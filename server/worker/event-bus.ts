import type { DatabaseTarget } from "@/server/db/database-url";
import type { PrismaClient } from "@/server/db/client";
import { prismaCatchUp } from "@/server/db/event-bus/catch-up";
import { PgEventBus, type EventBusStatus } from "@/server/db/event-bus/pg-event-bus";
import { InMemoryEventBus } from "@/server/runtime/events/memory-bus";
import type { EventBus, EventLog } from "@/server/runtime/ports";

export interface SelectedEventBus {
  bus: EventBus;
  status(): EventBusStatus;
  close(): Promise<void>;
}

/**
 * The event bus for this database: in-process on SQLite (one process), LISTEN/NOTIFY on PostgreSQL so that events
 * written by any process reach subscribers in every process. Resolves once the PostgreSQL bus listens.
 */
export async function createEventBus(opts: {
  database: DatabaseTarget;
  prisma: Pick<PrismaClient, "$queryRaw">;
  events: Pick<EventLog, "after">;
  /** False for a process without subscribers (a worker): it publishes but does not LISTEN. */
  listen: boolean;
}): Promise<SelectedEventBus> {
  if (opts.database.kind === "sqlite") {
    const bus = new InMemoryEventBus();
    return { bus, status: () => ({ kind: "memory" }), close: async () => {} };
  }
  const bus = new PgEventBus({
    connectionString: opts.database.url,
    catchUp: prismaCatchUp(opts.prisma, opts.events),
    listen: opts.listen,
    log: (m) => console.warn(m),
  });
  await bus.start();
  return { bus, status: () => bus.status(), close: () => bus.close() };
}
