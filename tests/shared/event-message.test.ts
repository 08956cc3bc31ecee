/**
 * The browser reads the message of `message.created` / `message.updated` through `eventMessageSchema`
 * (shared/event-message.ts). This holds it to what the runtime really emits: every such message, after the JSON trip
 * to the browser, parses, and parsing drops nothing (the schema names every field the runtime sets).
 */
import { afterEach, describe, expect, it } from "vitest";
import { chatDefinitions } from "@/server/runtime/testing/fixtures";
import { createTestRuntime, type TestRuntime } from "@/server/runtime/testing/harness";
import { eventMessageSchema } from "@/shared/event-message";

let t: TestRuntime;
afterEach(async () => t?.close());

describe("eventMessageSchema", () => {
  it("parses every message the runtime emits, unchanged: user, assistant with tool calls, tool results, attachments", async () => {
    t = await createTestRuntime({
      definitions: chatDefinitions(),
      script: [{ toolCalls: [{ name: "echo", args: { text: "ping" } }] }, { content: "Done: ping" }],
    });
    const thread = await t.runtime.createThread({ agentId: "chat" });
    await t.runtime.postMessage(thread.id, {
      content: "echo ping",
      // A stored file (size and MIME type known) and a path to no file yet (no size).
      attachments: [{ name: "dot.png", mimeType: "image/png", data: Buffer.from("png").toString("base64") }, "/attachments/later.txt"],
      metadata: { source: "chat" },
    });
    await t.settle(thread.id);

    const emitted = t.events.flatMap((e) => (e.event.type === "message.created" || e.event.type === "message.updated" ? [e.event.message] : []));
    const wire = emitted.map((m) => JSON.parse(JSON.stringify(m)));
    expect(wire.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    for (const m of wire) expect(eventMessageSchema.parse(m)).toEqual(m);
    expect(wire[0].attachments).toEqual([
      { path: "/attachments/dot.png", name: "dot.png", mimeType: "image/png", size: 3 },
      { path: "/attachments/later.txt", name: "later.txt", mimeType: "text/plain" },
    ]);
    expect(wire[1].tool_calls).toMatchObject([{ type: "function", function: { name: "echo" } }]);
  });
});
