import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../client";
import { createTestDatabase, type TestDatabase } from "../test-database";
import { databaseFileStorage } from "./database-file-storage";

let db: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = db.prisma;
});
afterAll(() => db.cleanup());

describe("databaseFileStorage", () => {
  it("replaces, reads, streams and clears the bytes of a file's row", async () => {
    const thread = await prisma.thread.create({ data: { agentId: "a", rootAgentId: "a" } });
    await prisma.threadFile.create({ data: { threadId: thread.id, path: "/f.txt", size: 3, data: Buffer.from("old") } });
    const storage = databaseFileStorage(prisma);
    expect(storage.kind).toBe("database");
    await storage.write(thread.id, "/f.txt", new TextEncoder().encode("0123456789"));
    expect(new TextDecoder().decode((await storage.read(thread.id, "/f.txt"))!)).toBe("0123456789");
    const chunks: string[] = [];
    for await (const c of (await storage.readStream(thread.id, "/f.txt", 4))!) chunks.push(new TextDecoder().decode(c));
    expect(chunks).toEqual(["0123", "4567", "89"]);
    await storage.delete(thread.id, "/f.txt");
    expect(await storage.read(thread.id, "/f.txt")).toBeNull();
    expect(await storage.readStream(thread.id, "/missing", 4)).toBeNull();
  });
});
