import { defineModel } from "@studio/spec";

/** Quick, inexpensive model for tool calling and reviewing. Any OpenAI-compatible endpoint works. */
export default defineModel({
  name: "fast",
  provider: "openai",
  model: "gpt-4.1-mini",
  // USD per million tokens.
  inputPrice: 0.4,
  outputPrice: 1.6,
  cachedPrice: 0.1,
  capabilities: { tools: true, streaming: true, vision: true },
});
