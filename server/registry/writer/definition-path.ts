import { DEFINITION_FILE_EXTENSIONS, isDefinitionKind, type DefinitionKind } from "@/server/spec";
import { DefinitionWriteError } from "./errors";

const FILE_PATTERN = /^([a-z]+)\/([A-Za-z0-9][A-Za-z0-9._-]*)(\.(?:ts|mts|js|mjs))$/;

/** Splits and checks a relative definition file path (`prompts/reviewer.ts`); throws on anything else. */
export function parseDefinitionPath(file: string): { kind: DefinitionKind; base: string; ext: string } {
  const m = FILE_PATTERN.exec(file);
  if (!m || !isDefinitionKind(m[1]!) || !(DEFINITION_FILE_EXTENSIONS as readonly string[]).includes(m[3]!)) {
    throw new DefinitionWriteError("BAD_REQUEST", `"${file}" is not a definition file path such as prompts/reviewer.ts`);
  }
  return { kind: m[1] as DefinitionKind, base: m[2]!, ext: m[3]! };
}
