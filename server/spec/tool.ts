import { z } from "zod";
import { identifierSchema } from "./names";
import { legacyTenvsSchema } from "./shared-fields";
import type { ThreadState } from "./thread-state";
import { type VariableDefinition, type VariableDefinitionInput, variableListSchema } from "./variable";
import { type AnyZodObject, functionSchema, isZodObjectLike, zodObjectSchema } from "./zod-like";

/** The arguments `execute` receives: the parsed output of `args`, or an empty object without a schema. */
export type ToolArgsOf<A> = A extends AnyZodObject ? z.output<A> : Record<string, never>;

/**
 * What a tool's `execute` returns: a `ToolResult`, a string (a success result) or any JSON value (stringified).
 * See `normalizeToolReturn`.
 */
export type ToolReturn = unknown;

/** A tool definition as written in `agents/tools/<name>.ts`. */
export interface ToolDefinition<A extends AnyZodObject | undefined = AnyZodObject | undefined> {
  /** Optional; the registry name is the file name and this must equal it when present. */
  name?: string;
  /** What the tool does, shown to the model. */
  description: string;
  /** Arguments schema (`z.object({...})`); the model's arguments are validated against it. */
  args?: A;
  /** Variables the tool uses. */
  variables?: VariableDefinitionInput[];
  /**
   * @deprecated Use `variables`. The spec's form is a zod object of the variables the tool reads
   * (`z.object({ VECTOR_STORE_ID: z.string() })`); each field becomes a `text` variable (required unless optional).
   */
  tenvs?: AnyZodObject | Record<string, unknown>;
  /** Runs the tool with the thread's state and the validated arguments. */
  execute: (state: ThreadState, args: ToolArgsOf<A>) => ToolReturn | Promise<ToolReturn>;
}

/** `execute` of a tool whose argument type is not known statically. */
export type AnyToolExecute = (state: ThreadState, args: Record<string, unknown>) => unknown;

/** Defines a tool; `args` is inferred so that `execute` receives `z.infer<typeof args>`. Returns its input. */
export function defineTool<A extends AnyZodObject | undefined = undefined>(
  definition: ToolDefinition<A>,
): ToolDefinition<A> {
  return definition;
}

const toolDefinitionObject = z.object({
  name: identifierSchema("tool name", "word_count").optional(),
  description: z
    .string({
      error: (i) =>
        i.input === undefined
          ? "required: add `description: '<what the tool does, for the model>'`"
          : "description must be a string",
    })
    .trim()
    .min(1, { error: "description must not be empty: tell the model what the tool does" }),
  args: zodObjectSchema("args").optional(),
  variables: variableListSchema,
  tenvs: z.union([zodObjectSchema("tenvs"), legacyTenvsSchema]).optional(),
  execute: functionSchema<AnyToolExecute>("execute", "execute: async (state, args) => { ... }"),
});

/** Field names a tool definition accepts. */
export const TOOL_DEFINITION_KEYS: readonly string[] = Object.keys(toolDefinitionObject.shape);

/** Schema of a tool definition (the default export of a tool file). Unknown keys are dropped. */
export const toolDefinitionSchema = toolDefinitionObject.transform((tool) => ({
  ...tool,
  variables: [...tool.variables, ...tenvsVariables(tool.tenvs, tool.variables)],
}));

/**
 * The variables a tool's `tenvs` in the spec's zod-object form declares (fields not already in `variables`): `text`
 * variables, required unless the field is optional. A plain record (the older form) declares none.
 */
function tenvsVariables(tenvs: unknown, declared: readonly VariableDefinition[]): VariableDefinition[] {
  if (!isZodObjectLike(tenvs)) return [];
  const known = new Set(declared.map((v) => v.name));
  return Object.entries(tenvs.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>)
    .filter(([name]) => !known.has(name))
    .map(([name, field]) => ({ name, type: "text" as const, required: !field.safeParse(undefined).success, scoped: false, description: "" }));
}

/** A parsed tool definition. */
export type ParsedToolDefinition = z.output<typeof toolDefinitionSchema>;
