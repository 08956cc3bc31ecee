import { describe, expect, expectTypeOf, it } from "vitest";
import * as spec from "./index";
import type { HookContext, HookMessage, HookToolCall, HookToolResult, Message, ThreadState, ToolCall, ToolResult } from "./index";

describe("spec module exports under the spec's names", () => {
  it("exports mapReasoningLevel and validateToolName", () => {
    expect(spec.mapReasoningLevel({ effort: "low" })).toEqual({ reasoning_effort: "low" });
    expect(spec.mapReasoningLevel({ effort: "high", maxTokens: 2000 })).toEqual({ reasoning: { max_tokens: 2000 } });
    expect(spec.validateToolName("word_count")).toEqual({ valid: true });
    const bad = spec.validateToolName("1 bad name");
    expect(bad.valid).toBe(false);
    expect(bad.valid ? "" : bad.error).toMatch(/not a valid name/);
    expect(spec.validateToolName("x".repeat(65)).valid).toBe(false);
  });

  it("exports the hook payload type names", () => {
    expectTypeOf<HookMessage>().toEqualTypeOf<Message>();
    expectTypeOf<HookToolCall>().toEqualTypeOf<ToolCall>();
    expectTypeOf<HookToolResult>().toEqualTypeOf<ToolResult>();
    expectTypeOf<HookContext>().toEqualTypeOf<ThreadState>();
  });
});
