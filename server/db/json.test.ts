import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  parseJsonColumn,
  parseJsonText,
  parseOptionalJsonColumn,
  PersistedDataError,
  toJsonColumn,
  toJsonText,
  toNullableJsonColumn,
} from "./json";
import { createTestDatabase, type TestDatabase } from "./test-database";

const tags = z.array(z.string());
const attachments = z.array(z.object({ path: z.string(), size: z.number().int().optional() }));

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

describe("persisted JSON columns", () => {
  it("parse what was stored, through a real database", async () => {
    const t = await db.prisma.thread.create({
      data: { agentId: "a", rootAgentId: "a", tags: toJsonColumn(["x", "y"], { model: "Thread", field: "tags" }) },
    });
    const m = await db.prisma.message.create({
      data: {
        threadId: t.id,
        seq: 1,
        role: "user",
        createdAt: 1n,
        attachments: toNullableJsonColumn([{ path: "/attachments/a.png", size: 3 }], {
          model: "Message",
          field: "attachments",
        }),
        metadata: toNullableJsonColumn(undefined, { model: "Message", field: "metadata" }),
      },
    });
    const row = await db.prisma.message.findUniqueOrThrow({ where: { id: m.id }, include: { thread: true } });
    expect(parseJsonColumn(tags, row.thread.tags, { model: "Thread", field: "tags", id: t.id })).toEqual(["x", "y"]);
    expect(parseOptionalJsonColumn(attachments, row.attachments, { model: "Message", field: "attachments" })).toEqual([
      { path: "/attachments/a.png", size: 3 },
    ]);
    expect(row.metadata).toBeNull(); // SQL NULL, not the JSON value null
    expect(
      parseOptionalJsonColumn(z.record(z.string(), z.unknown()), row.metadata, { model: "Message", field: "metadata" }),
    ).toBeNull();
  });

  it("fail with the table, column, row and the path inside the value", () => {
    const bad = [{ path: "/attachments/a.png", size: "big" }];
    let err: unknown;
    try {
      parseJsonColumn(attachments, bad, { model: "Message", field: "attachments", id: "m-1" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PersistedDataError);
    const e = err as PersistedDataError;
    expect(e.code).toBe("PERSISTED_DATA_INVALID");
    expect(e.message).toContain("Stored JSON in Message.attachments (row m-1) does not have the expected shape");
    expect(e.message).toMatch(/0\.size: .*number/);
    expect(e.ref).toEqual({ model: "Message", field: "attachments", id: "m-1" });
    expect(e.issues[0]?.path).toEqual([0, "size"]);
  });

  it("parse JSON text, reporting text that is not JSON", () => {
    expect(parseJsonText(tags, '["a"]', { model: "Thread", field: "tags" })).toEqual(["a"]);
    expect(() => parseJsonText(tags, "[oops", { model: "Thread", field: "tags", id: "t-9" })).toThrow(
      /Stored JSON in Thread\.tags \(row t-9\) is not valid JSON/,
    );
  });

  it("refuse values JSON cannot hold, naming the column", () => {
    const ref = { model: "LlmRequestLog", field: "request" };
    expect(() => toJsonColumn({ n: 1n }, ref)).toThrow(
      "Cannot store LlmRequestLog.request as JSON: it contains a bigint.",
    );
    expect(() => toJsonColumn({ n: Number.NaN }, ref)).toThrow(/contains the number NaN/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => toJsonColumn(cyclic, ref)).toThrow(/Cannot store LlmRequestLog\.request as JSON/);
    expect(() => toJsonColumn(null, ref)).toThrow(/Cannot store null or undefined in the required JSON column/);
    expect(toJsonColumn({ a: 1, b: undefined, d: new Date(0) }, ref)).toEqual({ a: 1, d: "1970-01-01T00:00:00.000Z" });
    // Deep inside arrays and objects too, not only at the top.
    expect(() => toJsonText({ messages: [{ role: "user", content: [{ type: "text", text: () => "x" }] }] }, ref)).toThrow(
      "Cannot store LlmRequestLog.request as JSON: it contains a function.",
    );
    expect(() => toJsonText({ a: [[[Number.POSITIVE_INFINITY]]] }, ref)).toThrow(/contains the number Infinity/);
    expect(toJsonText({ a: [1, "x", null, true, { b: undefined }], s: Symbol.for("k") === Symbol.for("k") }, ref)).toBe(
      '{"a":[1,"x",null,true,{}],"s":true}',
    );
  });
});
