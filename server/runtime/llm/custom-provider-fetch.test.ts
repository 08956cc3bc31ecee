import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import type { ProviderFactory } from "@/server/spec";
import { createLlmClient } from "./llm-client";

/** A custom provider's `config.fetch` answers like any fetch: its body is a web stream (`getReader()`). */
let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake?.close());

const reading: ProviderFactory = (config) => ({
  name: "reader",
  async *stream() {
    yield { type: "finish", finishReason: "stop" };
  },
  async listModels({ signal }) {
    const res = await config.fetch(`${config.baseURL}/models`, { signal });
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { id: string }[] };
    return body.data.map((m) => ({ id: m.id }));
  },
});

describe("a custom provider's fetch", () => {
  it("gives a standard response whose body a reader can read", async () => {
    const client = createLlmClient({ customProvider: (name) => (name === "reader" ? reading : undefined) });
    const models = await client.listModels!({ name: "reader", provider: "reader", baseURL: fake.url });
    expect(models.map((m) => m.id)).toContain("gpt-4.1-mini");
  });
});
