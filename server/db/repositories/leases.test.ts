import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test-database";
import { leaseStore } from "./leases";

describe("leases", () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => db.cleanup());

  it("has one owner until it is released or expires, and its owner renews it", async () => {
    const leases = leaseStore(db.prisma);
    expect(await leases.acquire("thread:a", "w1", 60_000)).toBe(true);
    expect(await leases.acquire("thread:a", "w2", 60_000)).toBe(false);
    expect(await leases.acquire("thread:a", "w1", 60_000)).toBe(true);
    await leases.release("thread:a", "w2");
    expect((await leases.holder("thread:a"))?.owner).toBe("w1");
    await leases.release("thread:a", "w1");
    expect(await leases.acquire("thread:a", "w2", 50)).toBe(true);

    await new Promise((r) => setTimeout(r, 80));
    expect(await leases.acquire("thread:a", "w3", 60_000)).toBe(true);
    expect(await leases.acquire("thread:b", "w3", 50)).toBe(true);
    expect(await leases.acquire("worker:w3", "w3", 50)).toBe(true);
    expect(await leases.extend("w3", 60_000, "thread:")).toBe(2);
    await new Promise((r) => setTimeout(r, 80));
    expect(await leases.acquire("thread:b", "w1", 60_000)).toBe(false);
    expect(await leases.acquire("worker:w3", "w1", 60_000)).toBe(true);
  });
});
