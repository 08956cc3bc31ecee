import { DefinitionError } from "../errors";
import type { Definitions } from "../definitions";

export type EnvLookup = (name: string) => Promise<{ value: string; secret: boolean } | undefined>;

/**
 * Render a prompt's system text: a string, or parts — `text` as written, `include` (another prompt's text, recursive,
 * cycle-safe) and `env` (a variable's value). Includes are separated from their neighbours by a blank line. An `env`
 * part naming a secret variable, or a variable nothing defines, is a definition error.
 */
export async function renderSystemPrompt(defs: Definitions, promptName: string, env: EnvLookup, stack: string[] = []): Promise<string> {
  if (stack.includes(promptName)) {
    throw new DefinitionError(`Prompt include cycle: ${[...stack, promptName].join(" → ")}; remove one of the include parts`);
  }
  const prompt = defs.prompt(promptName);
  if (!prompt) throw new DefinitionError(`Prompt "${promptName}" is not defined (agents/prompts/${promptName}.ts)`);
  if (typeof prompt.prompt === "string") return prompt.prompt;
  let out = "";
  for (const part of prompt.prompt) {
    if (part.type === "text") out += part.content;
    else if (part.type === "env") {
      const v = await env(part.property);
      if (!v) {
        throw new DefinitionError(
          `Prompt "${promptName}" inserts variable ${part.property}, but no value is set for it: provide it when creating the thread, or give it a default in the prompt's or agent's env`,
        );
      }
      if (v.secret) {
        throw new DefinitionError(`Prompt "${promptName}" inserts secret variable ${part.property}; secrets may only be used inside tools`);
      }
      out += v.value;
    } else {
      const included = await renderSystemPrompt(defs, part.prompt, env, [...stack, promptName]);
      out = out && !out.endsWith("\n\n") ? `${out.replace(/\n?$/, "")}\n\n${included}` : `${out}${included}`;
      out += "\n\n";
    }
  }
  return out.replace(/\n+$/, "");
}
