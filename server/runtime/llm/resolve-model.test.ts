import { describe, expect, it } from "vitest";
import { ModelNotDefinedError, resolveModelChain, type ModelDefinitionLike } from "./resolve-model";

const defs = (...list: ModelDefinitionLike[]) => new Map(list.map((d) => [d.name, d]));
const env = (values: Record<string, string>) => (name: string) => values[name];

describe("resolveModelChain", () => {
  it("follows fallbacks in order, breadth-first, each model once, even through a cycle", () => {
    const models = defs(
      { name: "careful", provider: "openai", model: "gpt-4.1", fallbacks: ["fast", "local"] },
      { name: "fast", provider: "openai", model: "gpt-4.1-mini", fallbacks: ["careful", "tiny"] },
      { name: "local", provider: "openai", model: "llama3", fallbacks: ["fast"] },
      { name: "tiny", provider: "openai", model: "gpt-4.1-nano" },
    );
    const chain = resolveModelChain(models, "careful", env({}));
    expect(chain.map((m) => m.name)).toEqual(["careful", "fast", "local", "tiny"]);
  });

  it("defaults baseURL and key, and reads a model's own key through apiKeyEnv", () => {
    const models = defs(
      { name: "main", provider: "openai", model: "gpt-4.1", fallbacks: ["router"], inputPrice: 2, outputPrice: 8 },
      {
        name: "router",
        provider: "openrouter",
        model: "anthropic/claude-sonnet-4",
        baseURL: "https://openrouter.ai/api/v1",
        apiKeyEnv: "OPENROUTER_API_KEY",
        providerOptions: { transforms: [] },
      },
    );
    const chain = resolveModelChain(models, "main", env({ OPENROUTER_API_KEY: "sk-or" }), {
      baseURL: "http://127.0.0.1:4010/v1",
      apiKey: "sk-default",
    });
    expect(chain[0]).toEqual({
      name: "main",
      provider: "openai",
      model: "gpt-4.1",
      baseURL: "http://127.0.0.1:4010/v1",
      apiKey: "sk-default",
      apiKeyEnv: "OPENAI_API_KEY",
      inputPrice: 2,
      outputPrice: 8,
    });
    expect(chain[1]).toMatchObject({
      baseURL: "https://openrouter.ai/api/v1",
      apiKey: "sk-or",
      apiKeyEnv: "OPENROUTER_API_KEY",
      providerOptions: { transforms: [] },
    });
  });

  it("never hands the default key to a model that names its own variable", () => {
    const models = defs({ name: "router", provider: "openai", model: "x", apiKeyEnv: "OPENROUTER_API_KEY" });
    const [router] = resolveModelChain(models, "router", env({ OPENROUTER_API_KEY: "  " }), { apiKey: "sk-default" });
    expect(router?.apiKey).toBeUndefined();
    expect(router?.apiKeyEnv).toBe("OPENROUTER_API_KEY");
  });

  it("leaves the key absent when none is configured (the call still goes out)", () => {
    const [local] = resolveModelChain(defs({ name: "local", provider: "openai", model: "llama3" }), "local", env({}));
    expect(local).not.toHaveProperty("apiKey");
    expect(local).not.toHaveProperty("baseURL");
  });

  it("names the missing file when the primary model is unknown, and skips unknown fallbacks", () => {
    expect(() => resolveModelChain(defs(), "fast", env({}))).toThrow(ModelNotDefinedError);
    expect(() => resolveModelChain(defs(), "fast", env({}))).toThrow(/agents\/models\/fast\.ts/);
    const chain = resolveModelChain(
      defs({ name: "a", provider: "openai", model: "m", fallbacks: ["ghost"] }),
      "a",
      env({}),
    );
    expect(chain.map((m) => m.name)).toEqual(["a"]);
  });
});
