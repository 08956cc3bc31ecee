import { z } from "zod";
import { identifierSchema } from "./names";
import { legacyTenvsSchema } from "./shared-fields";
import type { ThreadState } from "./thread-state";
import { type VariableDefinitionInput, variableListSchema } from "./variable";
import { type AnyZodObject, functionSchema, zodObjectSchema } from "./zod-like";

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
  /** @deprecated Use `variables`. */
  tenvs?: Record<string, unknown>;
  /**
   * What happens to a call of this tool that was interrupted (a crash, a restart, a lost worker) before its result
   * was stored: `'rerun'` (the default) runs it again, with `state.execution.attempt` 2, 3, …; `'fail'` does not run
   * it again and stores a tool error with `error_code: 'interrupted'` instead (for a tool that must not repeat its
   * side effect, such as a payment).
   */
  onInterrupt?: InterruptPolicy;
  /** Runs the tool with the thread's state and the validated arguments. */
  execute: (state: ThreadState, args: ToolArgsOf<A>) => ToolReturn | Promise<ToolReturn>;
}

/** What the runtime does with a tool call or effect interrupted before it finished (see `ToolDefinition.onInterrupt`). */
export type InterruptPolicy = "rerun" | "fail";

/** Schema of `onInterrupt` (tools and effects). */
export const interruptPolicySchema = z.enum(["rerun", "fail"], {
  error: "onInterrupt must be 'rerun' (run it again after an interruption, the default) or 'fail' (never run it twice)",
});

/** `execute` of a tool whose argument type is not known statically. */
export type AnyToolExecute = (state: ThreadState, args: Record<string, unknown>) => unknown;

/** Defines a tool; `args` is inferred so that `execute` receives `z.infer<typeof args>`. Returns its input. */
export function defineTool<A extends AnyZodObject | undefined = undefined>(
  definition: ToolDefinition<A>,
): ToolDefinition<A> {
  return definition;
}

/** Schema of a tool definition (the default export of a tool file). Unknown keys are dropped. */
export const toolDefinitionSchema = z.object({
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
  tenvs: legacyTenvsSchema.optional(),
  onInterrupt: interruptPolicySchema.optional(),
  execute: functionSchema<AnyToolExecute>("execute", "execute: async (state, args) => { ... }"),
});

/** A parsed tool definition. */
export type ParsedToolDefinition = z.output<typeof toolDefinitionSchema>;
