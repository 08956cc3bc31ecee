import { defineModel } from "@studio/spec";

/** Stronger model for writing and polishing prose; falls back to `fast` when it is unavailable. */
export default defineModel({
  name: "careful",
  provider: "openai",
  model: "gpt-4.1",
  fallbacks: ["fast"],
  // USD per million tokens.
  inputPrice: 2,
  outputPrice: 8,
  cachedPrice: 0.5,
  capabilities: { tools: true, streaming: true, vision: true },
});
