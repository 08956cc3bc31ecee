import { describe, expect, it } from "vitest";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { sseFrame, sseFrameBytes } from "./stream-handler";

const envelope = (seq: number, persisted = true): ThreadEventEnvelope => ({
  threadId: "t1",
  seq,
  persisted,
  at: "2026-11-24T00:00:00.000Z",
  event: { type: "thread.status", status: "running", stopReason: null },
});

describe("SSE frames", () => {
  it("carry the seq as the id of persisted events only", () => {
    expect(sseFrame(envelope(7))).toBe(
      'id: 7\ndata: {"seq":7,"thread_id":"t1","at":"2026-11-24T00:00:00.000Z","type":"thread.status","status":"running","stopReason":null}\n\n',
    );
    expect(sseFrame(envelope(7, false))).toMatch(/^data: \{"seq":7,/);
  });

  it("are encoded once per envelope, whatever the number of clients streaming it", () => {
    const env = envelope(3);
    const bytes = sseFrameBytes(env);
    expect(new TextDecoder().decode(bytes)).toBe(sseFrame(env));
    expect(sseFrameBytes(env)).toBe(bytes);
    const other = envelope(3);
    expect(sseFrameBytes(other)).not.toBe(bytes);
    expect(sseFrameBytes(other)).toEqual(bytes);
  });
});

describe("SSE frames from an event's stored text", () => {
  it("are the frames serialized from the event, and fall back when the event has a field of the envelope", async () => {
    const { keepEnvelopeText } = await import("@/server/runtime/events/envelope-text");
    const env = envelope(9);
    const plain = sseFrame(env);
    keepEnvelopeText(env, JSON.stringify(env.event));
    expect(sseFrame(env)).toBe(plain);
    // An event with an `at` of its own: its frame keeps the envelope's field order and the event's value, as before.
    const clash = { ...envelope(10), event: { type: "custom", event: "x", data: null, at: "mine" } } as unknown as ThreadEventEnvelope;
    const expected = sseFrame(clash);
    keepEnvelopeText(clash, JSON.stringify(clash.event));
    expect(sseFrame(clash)).toBe(expected);
    expect(JSON.parse(expected.split("data: ")[1]!).at).toBe("mine");
  });
});
