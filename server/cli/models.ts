import { createLlmClient, modelListTarget, isBuiltinProvider, BUILTIN_PROVIDERS } from "@/server/runtime/llm";
import { CliError, loadProject, type CliProject, type CommandOutput } from "./project";

/**
 * `studio models <provider> [--model <definition>]`: lists the models the provider's endpoint offers, through the same
 * provider code the runtime uses (built-in, or a custom provider from AGENTS_DIR/providers/). The endpoint and key come
 * from the provider's variables (OPENAI_*, ANTHROPIC_*, GEMINI_*) or the named model definition's `baseURL` and
 * `apiKeyEnv`, read from the environment. One line per model: id, name, context length; `--json` prints them as JSON.
 */
export async function modelsCommand(
  project: CliProject,
  io: CommandOutput,
  provider: string | undefined,
  options: { model?: string; json?: boolean },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  if (!provider) throw new CliError(`Name a provider: studio models <provider> (built in: ${Object.keys(BUILTIN_PROVIDERS).join(", ")}).`, 2);
  const snap = await loadProject(project);
  const custom = snap.providers.get(provider);
  if (!isBuiltinProvider(provider) && !custom) {
    throw new CliError(`Provider "${provider}" is neither built in (${Object.keys(BUILTIN_PROVIDERS).join(", ")}) nor defined in providers/${provider}.ts.`, 1);
  }
  const def = options.model !== undefined ? snap.models.get(options.model)?.definition : undefined;
  if (options.model !== undefined && !def) throw new CliError(`Model "${options.model}" is not defined (models/${options.model}.ts), or its file has errors.`, 1);
  if (def && def.provider !== provider) throw new CliError(`Model "${options.model}" uses provider "${def.provider}", not "${provider}".`, 1);
  const read = (name: string) => env[name]?.trim() || undefined;
  const llm = createLlmClient({ defaultBaseURL: read("OPENAI_BASE_URL"), defaultApiKey: read("OPENAI_API_KEY"), customProvider: (name) => snap.providers.get(name)?.factory });
  let models;
  try {
    models = await llm.listModels!(modelListTarget(provider, def, read), AbortSignal.timeout(30_000));
  } catch (error) {
    throw new CliError(`Listing the models of "${provider}" failed: ${(error as Error).message}`, 1);
  }
  if (options.json) {
    io.out(JSON.stringify({ provider, models }, null, 2));
    return 0;
  }
  for (const m of models) io.out([m.id, m.name ?? "", m.contextLength !== undefined ? `${m.contextLength} tokens` : ""].filter((x) => x !== "").join("  "));
  io.out(`${provider}: ${models.length} model${models.length === 1 ? "" : "s"}.`);
  return 0;
}
