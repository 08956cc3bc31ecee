import { describe, expect, it } from "vitest";
import { MemoryPersistence } from "../testing/memory-persistence";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { InMemoryEventBus } from "./memory-bus";
import { EventPublisher } from "./publisher";

const custom = (event: string) => ({ type: "custom" as const, event, data: null });

describe("EventPublisher", () => {
  it("gives live events the seq of the thread's last persisted one, and forgets a thread on request", async () => {
    const bus = new InMemoryEventBus();
    const seen: ThreadEventEnvelope[] = [];
    bus.subscribeAll((e) => seen.push(e));
    const pub = new EventPublisher(new MemoryPersistence(), bus);
    await pub.commit(async (_tx, emit) => {
      await emit("t1", custom("a"));
      await emit("t1", custom("b"));
      await emit("t2", custom("c"));
    });
    pub.live("t1", { type: "token.delta", stepId: "s", side: "a", content: "x" });
    expect(seen.at(-1)).toMatchObject({ threadId: "t1", seq: 2, persisted: false });
    expect(pub.tracked).toBe(2);
    pub.forget("t1");
    expect(pub.tracked).toBe(1);
    await pub.emit("t1", custom("d"));
    pub.live("t1", { type: "token.delta", stepId: "s", side: "a", content: "y" });
    expect(seen.at(-1)).toMatchObject({ threadId: "t1", seq: 3, persisted: false });
  });

  it("keeps a bounded number of threads, forgetting the least recently published first", async () => {
    const bus = new InMemoryEventBus();
    const pub = new EventPublisher(new MemoryPersistence(), bus);
    await pub.commit(async (_tx, emit) => {
      for (let i = 0; i < 10_050; i++) await emit(`t${i}`, custom("e"));
    });
    expect(pub.tracked).toBe(10_000);
    // t0 … t49 are gone; t60 becomes the most recent, then a new thread pushes out the oldest, t50.
    await pub.emit("t60", custom("again"));
    await pub.emit("new", custom("e"));
    const live: ThreadEventEnvelope[] = [];
    bus.subscribeAll((e) => live.push(e));
    pub.live("t60", { type: "token.delta", stepId: "s", side: "a", content: "x" });
    pub.live("t50", { type: "token.delta", stepId: "s", side: "a", content: "x" });
    expect(live.map((e) => e.seq)).toEqual([2, 0]);
  });
});
