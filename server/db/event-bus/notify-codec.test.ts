import { describe, expect, it } from "vitest";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { appendedEnvelopes, eventTexts } from "../event-texts";
import { envelopeJson, MAX_PAYLOAD_BYTES, NotifyDecoder, NotifyEncoder, utf8Slices } from "./notify-codec";

const env = (persisted: boolean, content: string): ThreadEventEnvelope => ({
  threadId: "t1",
  seq: 7,
  persisted,
  at: "2026-11-24T00:00:00.000Z",
  event: persisted
    ? { type: "message.created", message: { id: "m", role: "assistant", content } }
    : { type: "token.delta", stepId: "s", side: "a", content },
});

describe("NOTIFY payloads", () => {
  it("sends a small envelope inline, and two equal envelopes as two different payloads", () => {
    const enc = new NotifyEncoder("origin1");
    const [p1] = enc.encode(env(true, "hi"));
    const [p2] = enc.encode(env(true, "hi"));
    expect(p1).not.toBe(p2);
    expect(new NotifyDecoder().decode(p1!)).toEqual({ kind: "envelope", origin: "origin1", envelope: env(true, "hi") });
  });

  it("sends a large persisted event as a reference to its log row", () => {
    const payloads = new NotifyEncoder("o").encode(env(true, "x".repeat(20_000)));
    expect(payloads).toHaveLength(1);
    expect(new NotifyDecoder().decode(payloads[0]!)).toEqual({ kind: "ref", origin: "o", threadId: "t1", seq: 7 });
  });

  it("slices a large token delta under the limit, never inside a character, and reassembles it", () => {
    const content = "aé€😀".repeat(5_000);
    const payloads = new NotifyEncoder("o").encode(env(false, content));
    expect(payloads.length).toBeGreaterThan(5);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const dec = new NotifyDecoder();
    const results = payloads.map((p) => dec.decode(p));
    expect(results.slice(0, -1).every((r) => r === null)).toBe(true);
    expect(results.at(-1)).toEqual({ kind: "envelope", origin: "o", envelope: env(false, content) });
    expect(dec.pendingSlices).toBe(0);
  });

  it("cuts UTF-8 on character boundaries", () => {
    const s = "😀".repeat(10);
    const slices = utf8Slices(s, 7); // 4-byte characters: one per slice
    expect(slices).toHaveLength(10);
    expect(slices.join("")).toBe(s);
  });

  it("rejects a malformed payload with an error", () => {
    expect(() => new NotifyDecoder().decode("x:o:1:{}")).toThrow(/unknown notify payload kind/);
    expect(() => new NotifyDecoder().decode("e:o:1:{not json")).toThrow();
  });

  it("drops a payload received again (a batch re-sent after the sender lost its connection), per sender", () => {
    const a = new NotifyEncoder("senderA");
    const b = new NotifyEncoder("senderB");
    const dec = new NotifyDecoder();
    const batch = [...a.encode(env(false, "one")), ...a.encode(env(false, "two"))];
    const other = b.encode(env(false, "one"));
    expect(batch.map((p) => dec.decode(p))).toMatchObject([{ envelope: { event: { content: "one" } } }, { envelope: { event: { content: "two" } } }]);
    // Another sender's first payload has the same counter as A's: not a repeat.
    expect(dec.decode(other[0]!)).toMatchObject({ origin: "senderB" });
    // The batch again, after a reconnect of the listener too: dropped; A's next payload goes through.
    dec.reset();
    expect(batch.map((p) => dec.decode(p))).toEqual(["duplicate", "duplicate"]);
    expect(dec.decode(a.encode(env(false, "three"))[0]!)).toMatchObject({ envelope: { event: { content: "three" } } });
    // Slices of a large delta re-sent: the whole delta once.
    const slices = a.encode(env(false, "z".repeat(20_000)));
    expect(slices.length).toBeGreaterThan(1);
    const first = slices.map((p) => dec.decode(p));
    expect(first.at(-1)).toMatchObject({ kind: "envelope" });
    expect(slices.map((p) => dec.decode(p))).toEqual(slices.map(() => "duplicate"));
  });

  it("builds an appended envelope's JSON from its stored event text, the same text as serializing it", () => {
    const events = [
      { type: "message.created", message: { id: "m", role: "assistant", content: "hé \"q\" \u2028" } },
      // Not exactly its JSON (an undefined member, a Date): stored as converted, the envelope carries the parsed text.
      { type: "message.updated", message: { id: "m", note: undefined, at: new Date(0) } },
    ] as unknown as ThreadEventEnvelope["event"][];
    const stored = eventTexts(events);
    expect(stored.exact).toEqual([true, false]);
    const envs = appendedEnvelopes("t\"1", 41, "2026-11-28T00:00:00.000Z", events, stored);
    expect(envs[0]!.event).toBe(events[0]);
    expect(envs[1]!.event).toEqual({ type: "message.updated", message: { id: "m", at: "1970-01-01T00:00:00.000Z" } });
    for (const e of envs) {
      expect(envelopeJson(e)).toBe(JSON.stringify(e));
      const [payload] = new NotifyEncoder("o").encode(e);
      expect(new NotifyDecoder().decode(payload!)).toEqual({ kind: "envelope", origin: "o", envelope: JSON.parse(JSON.stringify(e)) });
    }
    // An envelope built elsewhere (a live token delta) has no stored text: serialized as it is.
    expect(envelopeJson(env(false, "x"))).toBe(JSON.stringify(env(false, "x")));
  });
});
