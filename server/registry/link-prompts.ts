import { BUILTIN_PROVIDER_TOOLS, DEFINITION_KIND_SINGULAR } from "@/server/spec";
import type { DiagnosticSink } from "./diagnostics";
import { didYouMean, listNames } from "./schema-fields";
import type { ValidatedEntry, ValidatedSet } from "./validate";

/** Most tools a prompt should offer before small models start choosing poorly (the mega-agent smell test). */
export const MAX_TOOLS_PER_PROMPT = 8;

/** Variable names declared `secret` anywhere in the registry, with the files that declare them. */
export function secretVariables(v: ValidatedSet): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (vars: ReadonlyArray<{ name: string; type: string }>, file: string) => {
    for (const variable of vars) if (variable.type === "secret") out.set(variable.name, [...(out.get(variable.name) ?? []), file]);
  };
  for (const a of v.agents.values()) add(a.definition.variables, a.file);
  for (const p of v.prompts.values()) add(p.definition.variables, p.file);
  for (const t of v.tools.values()) add(t.definition.variables, t.file);
  return out;
}

/** The `include` targets and `env` properties of a prompt's parts, each with its part index. */
export function promptParts(p: ValidatedEntry<"prompts">): { includes: Array<[number, string]>; envs: Array<[number, string]> } {
  const includes: Array<[number, string]> = [];
  const envs: Array<[number, string]> = [];
  if (Array.isArray(p.definition.prompt)) {
    p.definition.prompt.forEach((part, i) => {
      if (part.type === "include") includes.push([i, part.prompt]);
      if (part.type === "env") envs.push([i, part.property]);
    });
  }
  return { includes, envs };
}

/** Reports unknown hook ids in `hooks` of an agent or prompt. */
export function checkHookIds(entry: ValidatedEntry<"agents"> | ValidatedEntry<"prompts">, v: ValidatedSet, sink: DiagnosticSink): void {
  const hooks = entry.definition.hooks ?? [];
  hooks.forEach((id, i) => {
    if (v.hooks.has(id)) return;
    sink.error({
      kind: entry.kind,
      file: entry.file,
      name: entry.name,
      field: `hooks.${i}`,
      message: `${DEFINITION_KIND_SINGULAR[entry.kind] === "agent" ? "Agent" : "Prompt"} "${entry.name}" uses hook "${id}", which no hook file defines.${didYouMean(id, v.hooks.keys())}`,
      fix: `Create hooks/${id}.ts with \`export default defineHook({ id: '${id}', hook: 'filter_messages', execute })\`, or use a defined hook id: ${listNames([...v.hooks.keys()])}.`,
    });
  });
}

/** Per-prompt rules: the model exists (and calls tools if the prompt offers some), includes exist, env parts name no secret, hooks exist, at most 8 tools. */
export function checkPrompt(p: ValidatedEntry<"prompts">, v: ValidatedSet, secrets: Map<string, string[]>, sink: DiagnosticSink): void {
  const base = { kind: "prompts" as const, file: p.file, name: p.name };
  const model = p.definition.model;
  if (!v.models.has(model)) {
    sink.error({
      ...base,
      field: "model",
      message: `Prompt "${p.name}" uses model "${model}", which no model file defines.${didYouMean(model, v.models.keys())}`,
      fix: `Use a defined model (${listNames([...v.models.keys()])}) or create models/${model}.ts with \`export default defineModel({ name: '${model}', provider: 'openai', model: '<provider model id>' })\`.`,
    });
  }
  const modelDef = v.models.get(model)?.definition;
  const toolCount = p.definition.tools.length;
  if (modelDef?.capabilities?.tools === false && toolCount > 0) {
    sink.error({
      ...base,
      field: "tools",
      message: `Prompt "${p.name}" offers ${toolCount} tool${toolCount === 1 ? "" : "s"}, but its model "${model}" declares \`capabilities.tools: false\`: it cannot call them.`,
      fix: `Remove \`tools\` from ${p.file}, use a model that calls tools, or set \`capabilities.tools: true\` in models/${model}.ts if it can.`,
    });
  }
  const offers = modelDef ? BUILTIN_PROVIDER_TOOLS[modelDef.provider] : undefined;
  for (const [i, name] of (p.definition.providerTools ?? []).entries()) {
    // A custom provider's tools are its own business; a built-in provider's are known.
    if (!offers || offers.includes(name)) continue;
    sink.error({
      ...base,
      field: `providerTools.${i}`,
      message: `Prompt "${p.name}" asks for provider tool "${name}", but its model "${model}" is on provider "${modelDef!.provider}", which ${offers.length > 0 ? `runs only ${offers.join(", ")}` : "runs no tools itself"}.`,
      fix: `Remove "${name}" from providerTools in ${p.file}, or use a model on a provider that runs it (${Object.entries(BUILTIN_PROVIDER_TOOLS).filter(([, t]) => t.includes(name)).map(([n]) => n).join(", ")}).`,
    });
  }
  const { includes, envs } = promptParts(p);
  for (const [i, target] of includes) {
    if (v.prompts.has(target)) continue;
    sink.error({
      ...base,
      field: `prompt.${i}.prompt`,
      message: `Prompt "${p.name}" includes prompt "${target}" (prompt.${i}), which does not exist.${didYouMean(target, v.prompts.keys())}`,
      fix: `Correct the name in ${p.file} or create prompts/${target}.ts with \`export default definePrompt({ name: '${target}', ... })\`.`,
    });
  }
  for (const [i, property] of envs) {
    const declaredIn = secrets.get(property);
    if (!declaredIn) continue;
    sink.error({
      ...base,
      field: `prompt.${i}.property`,
      message: `Prompt "${p.name}" inserts variable "${property}" into its text (prompt.${i}), but "${property}" is declared secret in ${declaredIn.join(", ")}: secret values must never be sent to a model.`,
      fix: `Remove the env part prompt.${i} from ${p.file} and read the value inside a tool with \`state.env('${property}')\`; or, if it is not secret, declare it \`type: 'text'\`.`,
    });
  }
  checkHookIds(p, v, sink);
  const count = p.definition.tools.length;
  if (count > MAX_TOOLS_PER_PROMPT) {
    sink.warning({
      ...base,
      field: "tools",
      message: `Prompt "${p.name}" offers ${count} tools (more than ${MAX_TOOLS_PER_PROMPT}); models choose poorly from long, mixed tool lists.`,
      fix: `Split it: move related tools into a dual_ai subagent or a subprompt so that each prompt offers at most ${MAX_TOOLS_PER_PROMPT} tools.`,
    });
  }
}

/** Reports every `include` part that takes part in a cycle (a prompt that ends up including itself). */
export function checkIncludeCycles(v: ValidatedSet, sink: DiagnosticSink): void {
  const edges = new Map<string, string[]>();
  for (const p of v.prompts.values()) edges.set(p.name, promptParts(p).includes.map(([, t]) => t).filter((t) => v.prompts.has(t)));
  /** Shortest include path from `from` to `to`, or undefined. */
  const pathTo = (from: string, to: string): string[] | undefined => {
    const parent = new Map<string, string | null>([[from, null]]);
    const queue = [from];
    while (queue.length > 0) {
      const current = queue.shift()!;
      if (current === to) {
        const path: string[] = [];
        for (let n: string | null = current; n !== null; n = parent.get(n) ?? null) path.unshift(n);
        return path;
      }
      for (const next of edges.get(current) ?? []) {
        if (!parent.has(next)) {
          parent.set(next, current);
          queue.push(next);
        }
      }
    }
    return undefined;
  };
  for (const p of v.prompts.values()) {
    for (const [i, target] of promptParts(p).includes) {
      if (!v.prompts.has(target)) continue;
      const back = pathTo(target, p.name);
      if (!back) continue;
      const cycle = [p.name, ...back].join(" → ");
      sink.error({
        kind: "prompts",
        file: p.file,
        name: p.name,
        field: `prompt.${i}.prompt`,
        message: `Include cycle: ${cycle}. A prompt that includes itself can never be rendered.`,
        fix: `Remove the include part prompt.${i} ("${target}") from ${p.file}, or break the cycle elsewhere; move shared text into a prompt that includes nothing.`,
      });
    }
  }
}
