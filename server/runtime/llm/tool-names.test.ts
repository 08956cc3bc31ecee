import { describe, expect, it } from "vitest";
import { requestForModel, toolNameCodec } from "./tool-names";
import type { ChatTool, LlmRequest } from "./types";

const tool = (name: string): ChatTool => ({ type: "function", function: { name, description: name, parameters: { type: "object" } } });

describe("tool names as the model sees them", () => {
  it("sends a packaged name as its local part, avoids clashes in one request, and maps calls back", () => {
    const codec = toolNameCodec(["word_count", "@kit/a/word_count", "@kit/a/save.note", "plain"]);
    expect(codec.toModel("plain")).toBe("plain");
    expect(codec.toModel("@kit/a/word_count")).toBe("word_count_2");
    expect(codec.toModel("@kit/a/save.note")).toBe("save_note");
    expect(codec.fromModel("word_count_2")).toBe("@kit/a/word_count");
    expect(codec.fromModel("word_count")).toBe("word_count");
    expect(codec.fromModel("unknown")).toBe("unknown");
  });

  it("renames the tools and past tool calls of a request, and leaves a request of safe names as it is", () => {
    const request = {
      models: [],
      tools: [tool("@kit/a/word_count")],
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "@kit/a/word_count", arguments: "{}" } }] },
      ],
    } as unknown as LlmRequest;
    const sent = requestForModel(request, toolNameCodec(["@kit/a/word_count"]));
    expect(sent.tools?.[0]?.function.name).toBe("word_count");
    expect(JSON.stringify(sent.messages)).not.toContain("@kit");
    const safe = { ...request, tools: [tool("word_count")] } as LlmRequest;
    expect(requestForModel(safe, toolNameCodec(["word_count"]))).toBe(safe);
  });
});
