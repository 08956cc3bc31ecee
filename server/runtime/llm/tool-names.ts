import type { LlmRequest } from "./types";

/** What providers accept as a function name (OpenAI: letters, digits, `_` and `-`, at most 64). */
const MODEL_SAFE = /^[A-Za-z0-9_-]{1,64}$/;

/** Maps registry tool names to the names a model sees and back. */
export interface ToolNameCodec {
  toModel(name: string): string;
  fromModel(name: string): string;
}

/**
 * Packaged definitions are named `packageId/name` (`@scope/kit/word_count`), which no provider accepts as a function
 * name. Such a name is sent as its local part (`word_count`), sanitised, with `_2`, `_3`… when that is taken in the
 * same request; names that are already safe go out unchanged. Calls coming back are mapped to the registry names.
 */
export function toolNameCodec(names: readonly string[]): ToolNameCodec {
  const out = new Map<string, string>();
  const back = new Map<string, string>();
  const taken = new Set(names.filter((n) => MODEL_SAFE.test(n)));
  for (const name of names) {
    if (MODEL_SAFE.test(name)) continue;
    const local = (name.slice(name.lastIndexOf("/") + 1).replace(/[^A-Za-z0-9_-]+/g, "_") || "tool").slice(0, 60);
    let candidate = local;
    for (let i = 2; taken.has(candidate); i++) candidate = `${local}_${i}`;
    taken.add(candidate);
    out.set(name, candidate);
    back.set(candidate, name);
  }
  return { toModel: (n) => out.get(n) ?? n, fromModel: (n) => back.get(n) ?? n };
}

/** The request with every tool name (tools, past assistant tool calls) as the model sees it. */
export function requestForModel(request: LlmRequest, codec: ToolNameCodec): LlmRequest {
  const tools = request.tools ?? [];
  if (tools.every((t) => codec.toModel(t.function.name) === t.function.name)) return request;
  return {
    ...request,
    tools: tools.map((t) => ({ ...t, function: { ...t.function, name: codec.toModel(t.function.name) } })),
    messages: request.messages.map((m) =>
      m.role === "assistant" && m.tool_calls
        ? { ...m, tool_calls: m.tool_calls.map((c) => ({ ...c, function: { ...c.function, name: codec.toModel(c.function.name) } })) }
        : m,
    ),
  };
}
