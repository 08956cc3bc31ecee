import { describe, expectTypeOf, it } from "vitest";
import { type AnyHookDefinition, defineHook, type HookDefinition, type HookName } from "./hook";
import type { LlmMessage } from "./llm-message";
import type { Message, MessageUpdates, ToolCall } from "./message";
import type { ThreadState } from "./thread-state";
import type { ToolResult } from "./tool-result";

describe("defineHook infers execute's signature from the hook name", () => {
  it("filter_messages: (state, messages) => messages", () => {
    const hook = defineHook({
      id: "limit",
      hook: "filter_messages",
      execute: (state, messages) => {
        expectTypeOf(state).toEqualTypeOf<ThreadState>();
        expectTypeOf(messages).toEqualTypeOf<Message[]>();
        return messages.slice(-20);
      },
    });
    expectTypeOf(hook).toEqualTypeOf<HookDefinition<"filter_messages">>();
  });

  it("prefilter_llm_history works on the messages sent to the model", () => {
    defineHook({
      id: "p",
      hook: "prefilter_llm_history",
      execute: async (_state, messages) => {
        expectTypeOf(messages).toEqualTypeOf<LlmMessage[]>();
        return messages;
      },
    });
  });

  it("message hooks", () => {
    defineHook({
      id: "a",
      hook: "before_create_message",
      execute: (_s, message) => {
        expectTypeOf(message).toEqualTypeOf<Message>();
        return message;
      },
    });
    defineHook({ id: "b", hook: "after_create_message", execute: (_s, message) => void message.id });
    defineHook({
      id: "c",
      hook: "before_update_message",
      execute: (_s, messageId, updates) => {
        expectTypeOf(messageId).toEqualTypeOf<string>();
        expectTypeOf(updates).toEqualTypeOf<MessageUpdates>();
        return updates;
      },
    });
    defineHook({ id: "d", hook: "after_update_message", execute: async (_s, message) => void message.content });
  });

  it("tool hooks", () => {
    defineHook({
      id: "e",
      hook: "before_store_tool_result",
      execute: (_s, toolCall, result) => {
        expectTypeOf(toolCall).toEqualTypeOf<ToolCall>();
        expectTypeOf(result).toEqualTypeOf<ToolResult>();
        return result;
      },
    });
    defineHook({ id: "f", hook: "after_tool_call_success", execute: () => undefined });
    defineHook({
      id: "g",
      hook: "after_tool_call_failure",
      execute: (_s, _call, error) => {
        expectTypeOf(error).toEqualTypeOf<Error>();
        return { status: "error", error: error.message };
      },
    });
  });

  it("rejects a signature that does not fit the hook", () => {
    defineHook({
      id: "x",
      hook: "before_create_message",
      // @ts-expect-error before_create_message must return the message
      execute: () => 42,
    });
    // @ts-expect-error not a hook point
    defineHook({ id: "y", hook: "before_llm", execute: () => undefined });
  });

  it("AnyHookDefinition narrows on hook", () => {
    const check = (h: AnyHookDefinition) => {
      expectTypeOf(h.hook).toEqualTypeOf<HookName>();
      if (h.hook === "filter_messages") expectTypeOf(h.execute).parameter(1).toEqualTypeOf<Message[]>();
    };
    void check;
  });
});
