import { describe, expect, it } from "vitest";
import { formatZodIssues } from "./format-issues";
import { defineHook, HOOK_NAMES, hookDefinitionSchema } from "./hook";
import type { Message } from "./message";
import type { ThreadState } from "./thread-state";

const limitHistory = defineHook({
  id: "limit_to_20_messages",
  hook: "filter_messages",
  execute: (_state, messages) => messages.slice(-20),
});

describe("hooks", () => {
  it("lists the nine hook points of the spec", () => {
    expect(HOOK_NAMES).toEqual([
      "filter_messages",
      "prefilter_llm_history",
      "before_create_message",
      "after_create_message",
      "before_update_message",
      "after_update_message",
      "before_store_tool_result",
      "after_tool_call_success",
      "after_tool_call_failure",
    ]);
  });

  it("accepts a defineHook result and keeps its execute", async () => {
    const parsed = hookDefinitionSchema.parse(limitHistory);
    expect(parsed.id).toBe("limit_to_20_messages");
    expect(parsed.hook).toBe("filter_messages");
    const messages: Message[] = Array.from({ length: 25 }, (_, i) => ({
      id: `m${i}`,
      role: "user",
      content: String(i),
      created_at: i,
    }));
    if (parsed.hook !== "filter_messages") throw new Error("hook point lost");
    const kept = await parsed.execute({} as ThreadState, messages);
    expect(kept.map((m) => m.id)).toEqual(messages.slice(5).map((m) => m.id));
  });

  it.each(HOOK_NAMES)("accepts the hook point %s", (hook) => {
    expect(hookDefinitionSchema.safeParse({ id: "h", hook, execute: () => undefined }).success).toBe(true);
  });

  it("rejects an unknown hook point, listing the valid ones", () => {
    const value = { id: "h", hook: "before_llm", execute: () => undefined };
    const r = hookDefinitionSchema.safeParse(value);
    const [issue] = formatZodIssues(r.error!.issues, value);
    expect(issue?.path).toBe("hook");
    expect(issue?.message).toBe(`hook "before_llm" is not a hook point: use one of ${HOOK_NAMES.join(", ")}`);
  });

  it("requires id, hook and execute", () => {
    const r = hookDefinitionSchema.safeParse({});
    expect(formatZodIssues(r.error!.issues, {})).toEqual([
      { path: "id", message: "required: add `id: '<hook id>'`", code: "invalid_type" },
      {
        path: "hook",
        message: "required: add `hook: 'filter_messages'` (or another hook point)",
        code: "invalid_value",
      },
      { path: "execute", message: "required: add `execute: async (state, ...args) => { ... }`", code: "custom" },
    ]);
  });
});
