import { describe, expect, it } from "vitest";
import { formatZodIssues } from "./format-issues";
import {
  getMessagesOptionsSchema,
  injectMessageInputSchema,
  messageSchema,
  messageUpdatesSchema,
  queueMessageInputSchema,
} from "./message";

describe("messageSchema", () => {
  it("accepts an assistant message with OpenAI-shaped tool calls", () => {
    const message = {
      id: "m1",
      thread_id: "t1",
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "word_count", arguments: '{"text":"a b"}' } }],
      created_at: 1_700_000_000_000_000,
      depth: 0,
    };
    expect(messageSchema.parse(message)).toEqual(message);
  });

  it("accepts a silent tool message with attachments and subagent projections", () => {
    const message = {
      id: "m2",
      role: "tool",
      content: "Subagent (reference: 1) has returned the following result:\n\nok",
      tool_call_id: "call_1",
      tool_status: "success",
      silent: true,
      attachments: [
        { id: "a1", type: "file", path: "/attachments/x.png", name: "x.png", mimeType: "image/png", size: 10 },
      ],
      metadata: { subagent_id: "c1" },
      subagent_id: "c1",
      subagent_name: "draft_and_review",
      subagent_status: "running",
      subagent_resumable: false,
      subagent_blocking: true,
      subagent_thread_name: null,
      created_at: 5,
    };
    expect(messageSchema.parse(message)).toEqual(message);
  });

  it("rejects an unknown role and a malformed tool call", () => {
    const value = {
      id: "m",
      role: "robot",
      content: "x",
      created_at: 1,
      tool_calls: [{ id: "c", type: "function", function: { name: "x" } }],
    };
    const r = messageSchema.safeParse(value);
    expect(formatZodIssues(r.error!.issues, value).map((i) => i.path)).toEqual([
      "role",
      "tool_calls.0.function.arguments",
    ]);
  });
});

describe("message inputs", () => {
  it("queueMessage accepts only user/assistant roles and path, new-file or stored attachments", () => {
    expect(
      queueMessageInputSchema.parse({
        role: "user",
        content: "hi",
        silent: true,
        attachments: ["/attachments/a.png", { name: "b.txt", mimeType: "text/plain", data: "aGk=" }],
        metadata: { subagent_id: "c1" },
      }).attachments,
    ).toHaveLength(2);
    expect(queueMessageInputSchema.safeParse({ role: "system", content: "x" }).success).toBe(false);
    expect(
      queueMessageInputSchema.safeParse({ role: "user", content: "x", attachments: ["relative.png"] }).success,
    ).toBe(false);
  });

  it("injectMessage accepts a tool message", () => {
    expect(
      injectMessageInputSchema.parse({ role: "tool", content: "12:00", tool_call_id: "c1", name: "current_time" }),
    ).toEqual({ role: "tool", content: "12:00", tool_call_id: "c1", name: "current_time" });
  });

  it("message updates and list options are validated", () => {
    expect(messageUpdatesSchema.parse({ content: "edited", silent: false })).toEqual({
      content: "edited",
      silent: false,
    });
    expect(messageUpdatesSchema.safeParse({ tool_status: "maybe" }).success).toBe(false);
    expect(
      getMessagesOptionsSchema.parse({ limit: 10, offset: 0, order: "desc", includeSilent: true, maxDepth: 0 }),
    ).toEqual({ limit: 10, offset: 0, order: "desc", includeSilent: true, maxDepth: 0 });
    expect(getMessagesOptionsSchema.safeParse({ limit: 0 }).success).toBe(false);
    expect(getMessagesOptionsSchema.safeParse({ order: "newest" }).success).toBe(false);
  });
});

describe("attachmentInputPath", () => {
  it("gives the path of a path or a stored ref, and nothing for a new file", async () => {
    const { attachmentInputPath } = await import("./attachment");
    expect(attachmentInputPath("/attachments/a.png")).toBe("/attachments/a.png");
    expect(
      attachmentInputPath({
        id: "1",
        type: "file",
        path: "/attachments/b.png",
        name: "b.png",
        mimeType: "image/png",
        size: 1,
      }),
    ).toBe("/attachments/b.png");
    expect(attachmentInputPath({ name: "c.txt", mimeType: "text/plain", data: "" })).toBeUndefined();
  });
});
