import type { PrismaClient } from "../client";

export interface ThreadPreview {
  role: string;
  text: string;
  /** When the message was created (µs). */
  at: number;
}

/** The last visible user or assistant text of each thread (its first 240 characters). */
export async function threadPreviews(prisma: PrismaClient, ids: string[]): Promise<Map<string, ThreadPreview>> {
  const out = new Map<string, ThreadPreview>();
  if (ids.length === 0) return out;
  const where = {
    threadId: { in: ids },
    silent: false,
    role: { in: ["user", "assistant"] },
    content: { not: null },
    NOT: { content: "" },
  };
  const last = await prisma.message.groupBy({ by: ["threadId"], where, _max: { seq: true } });
  const keys = last.filter((l) => l._max.seq !== null).map((l) => ({ threadId: l.threadId, seq: l._max.seq! }));
  if (keys.length === 0) return out;
  // Chunks keep the OR expression well under SQLite's expression depth limit.
  for (let i = 0; i < keys.length; i += 200) {
    const rows = await prisma.message.findMany({
      where: { OR: keys.slice(i, i + 200) },
      select: { threadId: true, role: true, content: true, createdAt: true },
    });
    for (const r of rows) out.set(r.threadId, { role: r.role, text: (r.content ?? "").slice(0, 240), at: Number(r.createdAt) });
  }
  return out;
}
