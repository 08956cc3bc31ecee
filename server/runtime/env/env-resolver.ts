import type { ParsedAgentDefinition, ParsedPromptDefinition } from "@/server/spec";
import type { EnvValueRecord } from "../ports";
import type { SecretBox } from "./secret-box";

export interface EnvSources {
  thread: EnvValueRecord[];
  user: EnvValueRecord[];
  instance: EnvValueRecord[];
  agent?: Pick<ParsedAgentDefinition, "env">;
  /** The env of the tool config (`{name, env}` on the prompt) when resolving for that tool. */
  toolConfig?: Record<string, string>;
  prompt?: Pick<ParsedPromptDefinition, "env">;
}

export interface ResolvedValue {
  value: string;
  secret: boolean;
  source: "thread" | "user" | "instance" | "agent" | "tool" | "prompt";
}

/**
 * Env resolution, highest first (design.md §4): thread → user account → instance → agent definition → the tool's
 * config `env` → prompt definition. Secret values are stored encrypted and decrypted here.
 */
export function resolveEnvValue(name: string, sources: EnvSources, box: SecretBox | null): ResolvedValue | undefined {
  const stored = (rows: EnvValueRecord[], source: ResolvedValue["source"]): ResolvedValue | undefined => {
    const row = rows.find((r) => r.name === name);
    if (!row) return undefined;
    if (row.type === "secret") {
      if (!box) throw new Error(`Secret variable ${name} cannot be decrypted: no secrets key is configured`);
      return { value: box.decrypt(row.value), secret: true, source };
    }
    return { value: row.value, secret: false, source };
  };
  const fromDef = (env: Record<string, string> | undefined, source: ResolvedValue["source"]): ResolvedValue | undefined =>
    env && Object.prototype.hasOwnProperty.call(env, name) ? { value: env[name]!, secret: false, source } : undefined;
  return (
    stored(sources.thread, "thread") ??
    stored(sources.user, "user") ??
    stored(sources.instance, "instance") ??
    fromDef(sources.agent?.env, "agent") ??
    fromDef(sources.toolConfig, "tool") ??
    fromDef(sources.prompt?.env, "prompt")
  );
}
