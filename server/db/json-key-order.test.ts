import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import { createPersistence } from "./persistence";
import { createTestDatabase, type TestDatabase } from "./test-database";

/**
 * Stored JSON reads back with its object keys in the order written, on both databases (on PostgreSQL the JSON
 * columns are `json`, not `jsonb`, which sorts keys by length): event data, message metadata, thread state.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

/** Keys chosen so that jsonb's order (shorter first, then bytewise) differs from the written one at every level. */
const value = () => ({ zebra: 1, b: { yy: true, a: [{ long_key: 1, k: 2 }] }, mm: "x", a: null });
const keysDeep = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(keysDeep) : v && typeof v === "object" ? Object.entries(v).map(([k, x]) => [k, keysDeep(x)]) : v;

describe(`JSON key order (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "SQLite"})`, () => {
  it("keeps the written key order in events and messages", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    const env = await p.events.append(t.id, { type: "custom", event: "ordered", data: value() });
    const [batched] = await p.transaction((tx) => tx.events.appendMany(t.id, [{ type: "custom", event: "batch", data: value() }]));
    const msg = await p.transaction((tx) =>
      tx.messages.append(t.id, {
        role: "assistant",
        content: "hi",
        name: null,
        toolCalls: null,
        toolCallId: null,
        toolStatus: null,
        reasoningContent: null,
        attachments: null,
        silent: false,
        depth: 0,
        side: "a",
        metadata: value(),
        subagentId: null,
      }),
    );
    const events = await p.events.after(t.id, 0);
    expect(events.map((e) => JSON.stringify(e.event))).toEqual([JSON.stringify(env.event), JSON.stringify(batched!.event)]);
    expect(keysDeep((events[0]!.event as { data: unknown }).data)).toEqual(keysDeep(value()));
    const [stored] = await p.messages.list(t.id, { includeSilent: true });
    expect(stored!.id).toBe(msg.id);
    expect(JSON.stringify(stored!.metadata)).toBe(JSON.stringify(value()));
  });
});
