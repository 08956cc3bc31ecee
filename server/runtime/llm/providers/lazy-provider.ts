import type { LLMProviderInterface, ProviderFactory, ProviderRequest } from "@/server/spec";

/**
 * A built-in provider whose SDK loads on its first call: an app whose models all use one provider does not load the
 * other providers' SDKs (hundreds of modules) at start. `inspectRequest` is synchronous, so the request shaping it
 * needs is imported eagerly by the caller (it uses the SDK's types only).
 */
export function lazyProvider(
  name: string,
  load: () => Promise<ProviderFactory>,
  inspect: (request: ProviderRequest) => Record<string, unknown>,
): ProviderFactory {
  return (config) => {
    let instance: Promise<LLMProviderInterface> | null = null;
    const provider = () => (instance ??= load().then((create) => create(config)));
    return {
      name,
      inspectRequest: (request) => ({ body: inspect(request) }),
      async *stream(request, options) {
        yield* (await provider()).stream(request, options);
      },
      async listModels(options) {
        const p = await provider();
        if (!p.listModels) throw new Error(`The ${name} provider cannot list models`);
        return p.listModels(options);
      },
    };
  };
}
