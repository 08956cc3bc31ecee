/**
 * Validates a definition document with the spec's zod schema, as the registry would, and returns the issues with
 * their field paths. Issues at or under a `{ $code }` marker are left out: code is checked when the file loads.
 * Browser-safe (spec schemas only).
 */
import { agentDefinitionSchema, formatZodIssues, modelDefinitionSchema, promptDefinitionSchema, type FormattedIssue } from "@/server/spec";
import { codePaths, type DocObject, type EditableKind } from "./doc";

const SCHEMAS = {
  agents: agentDefinitionSchema,
  prompts: promptDefinitionSchema,
  models: modelDefinitionSchema,
} as const;

const under = (path: string, prefix: string) => prefix === "" || path === prefix || path.startsWith(`${prefix}.`);

/** Schema issues of `value` as a definition of `kind` (empty when valid). */
export function validateDoc(kind: EditableKind, value: DocObject): FormattedIssue[] {
  const parsed = SCHEMAS[kind].safeParse(value, { reportInput: true });
  if (parsed.success) return [];
  const code = codePaths(value);
  return formatZodIssues(parsed.error.issues, value).filter((issue) => !code.some((c) => under(issue.path, c)));
}

/** The issues that concern the field at `path` or a field inside it. */
export function issuesAt(issues: readonly FormattedIssue[], path: string): FormattedIssue[] {
  return issues.filter((i) => under(i.path, path));
}
