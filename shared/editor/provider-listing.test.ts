import { describe, expect, it } from "vitest";
import { modelSummary } from "./model-catalog";
import { modelFileName, unlistedModels, withListings } from "./provider-listing";

const fast = modelSummary("fast", { name: "fast", provider: "openai", model: "gpt-4.1-mini", inputPrice: 0.4, outputPrice: 1.6 });
const old = modelSummary("old", { name: "old", provider: "openai", model: "gpt-3" });
const gem = modelSummary("gem", { name: "gem", provider: "google", model: "gemini-2.5-flash", capabilities: { maxContextTokens: 100 } });

describe("provider listings in the model picker", () => {
  it("marks the files whose model the provider lists, with the list's name and context size when the file has none", () => {
    const listings = [
      { provider: "openai", models: [{ id: "gpt-4.1-mini", name: "GPT-4.1 mini", contextLength: 1_047_576 }, { id: "gpt-4o" }] },
      { provider: "google", models: [{ id: "gemini-2.5-flash", contextLength: 1_048_576 }] },
    ];
    const [f, o, g] = withListings([fast, old, gem], listings);
    expect(f).toMatchObject({ listed: true, displayName: "GPT-4.1 mini", context: 1_047_576 });
    expect(o).toMatchObject({ listed: false });
    expect(o!.context).toBeUndefined();
    // The model file's own context size wins.
    expect(g).toMatchObject({ listed: true, context: 100 });
    expect(unlistedModels([fast, old, gem], listings)).toEqual([{ provider: "openai", id: "gpt-4o" }]);
  });

  it("falls back to the model files alone when a provider has no list", () => {
    const listings = [{ provider: "openai", error: "no key" }];
    expect(withListings([fast], listings)).toEqual([fast]);
    expect(unlistedModels([fast], listings)).toEqual([]);
  });

  it("names a new model file after the provider's id, free of clashes", () => {
    expect(modelFileName("gpt-4o", new Set())).toBe("gpt_4o");
    expect(modelFileName("models/gemini-2.5-pro", new Set())).toBe("gemini_2_5_pro");
    expect(modelFileName("gpt-4o", new Set(["gpt_4o", "gpt_4o_2"]))).toBe("gpt_4o_3");
    expect(modelFileName("4o", new Set())).toBe("m_4o");
  });
});
