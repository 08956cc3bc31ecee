import { describe, expect, it } from "vitest";
import { describeModel, modelSummary, searchModels } from "./model-catalog";

const fast = modelSummary("fast", { name: "fast", provider: "openai", model: "gpt-4.1-mini", inputPrice: 0.4, outputPrice: 1.6, capabilities: { tools: true, streaming: true, vision: true, maxContextTokens: 1_047_576 } });
const careful = modelSummary("careful", { name: "careful", provider: "openai", model: "gpt-4.1", inputPrice: 2, outputPrice: 8, capabilities: { tools: true, maxContextTokens: 128_000 } });
const bare = modelSummary("bare", { name: "bare", provider: "openai", model: "local" });

describe("model catalog", () => {
  it("reads provider, model id, prices, context and capabilities from the model file", () => {
    expect(fast).toEqual({ name: "fast", provider: "openai", model: "gpt-4.1-mini", inputPrice: 0.4, outputPrice: 1.6, context: 1_047_576, capabilities: ["tools", "vision", "streaming"] });
    expect(describeModel(fast)).toBe("openai · gpt-4.1-mini · $0.4 / $1.6 per M tokens · 1M context · tools, vision, streaming");
    expect(describeModel(careful)).toBe("openai · gpt-4.1 · $2 / $8 per M tokens · 128k context · tools");
  });

  it("says what a model file leaves out", () => {
    expect(describeModel(bare)).toBe("openai · local · no price · no capabilities listed");
  });

  it("searches names and facts, every word", () => {
    expect(searchModels([fast, careful, bare], "").map((m) => m.name)).toEqual(["bare", "careful", "fast"]);
    expect(searchModels([fast, careful, bare], "vision").map((m) => m.name)).toEqual(["fast"]);
    expect(searchModels([fast, careful, bare], "openai 128k").map((m) => m.name)).toEqual(["careful"]);
  });
});
