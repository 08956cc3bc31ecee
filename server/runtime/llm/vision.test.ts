import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { createLlmClient } from "./llm-client";
import { modelOn } from "./test-support";
import type { ChatMessage } from "./types";

/** `capabilities.vision: false`: the real openai SDK sends a text line naming each image instead of the image. */
let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ script: [{ when: { model: "down" }, status: 400, error: "no" }, { respond: { content: "ok" } }] });
});
afterAll(() => fake?.close());
beforeEach(() => fake.clearRequests());

const PIXEL = "data:image/png;base64,iVBORw0KGgo=";
const messages: ChatMessage[] = [
  { role: "user", content: [{ type: "text", text: "what is this?" }, { type: "image_url", image_url: { url: PIXEL }, name: "photos/cat.png" }] },
];

describe("images and a model's vision", () => {
  it("sends the image to a model that may see, without the attachment name", async () => {
    await createLlmClient().complete({ models: [modelOn(fake, "seeing", "gpt-4o")], messages });
    const content = fake.getRequests()[0]!.body.messages as any[];
    expect(content[0].content).toEqual([{ type: "text", text: "what is this?" }, { type: "image_url", image_url: { url: PIXEL } }]);
  });

  it("sends a text line naming the attachment to a model without vision, also as a fallback", async () => {
    const client = createLlmClient({ maxRetries: 0 });
    const result = await client.complete({ models: [modelOn(fake, "first", "down"), modelOn(fake, "blind", "text-only", { vision: false })], messages });
    expect(result.model.name).toBe("blind");
    const [first, second] = fake.getRequests();
    expect((first!.body.messages as any[])[0].content[1].type).toBe("image_url");
    expect((second!.body.messages as any[])[0].content).toEqual([
      { type: "text", text: "what is this?" },
      { type: "text", text: "[image attachment: photos/cat.png (not shown: this model has no vision)]" },
    ]);
    expect(JSON.stringify(second!.body)).not.toContain("base64");
  });
});
