import { z } from "zod";
import { identifierSchema } from "./names";
import { legacyTenvsSchema } from "./shared-fields";
import type { ThreadState } from "./thread-state";
import { type ResolveUsesState, THREAD_STATE_MEMBERS, type ThreadStateMember } from "./uses";
import { type VariableDefinition, type VariableDefinitionInput, variableListSchema } from "./variable";
import { type AnyZodObject, functionSchema, isZodObjectLike, zodObjectSchema } from "./zod-like";

/** The arguments `execute` receives: the parsed output of `args`, or an empty object without a schema. */
export type ToolArgsOf<A> = A extends AnyZodObject ? z.output<A> : Record<string, never>;

/**
 * What a tool's `execute` returns: a `ToolResult`, a string (a success result) or any JSON value (stringified).
 * See `normalizeToolReturn`.
 */
export type ToolReturn = unknown;

/** `execute` of a tool: its state is limited to the members `uses` lists, when it lists any. */
export type UsesAwareExecute<A extends AnyZodObject | undefined, U extends readonly ThreadStateMember[] | undefined> = (
  state: ResolveUsesState<U>,
  args: ToolArgsOf<A>,
) => ToolReturn | Promise<ToolReturn>;

/** A tool definition as written in `agents/tools/<name>.ts`. */
export interface ToolDefinition<
  A extends AnyZodObject | undefined = AnyZodObject | undefined,
  U extends readonly ThreadStateMember[] | undefined = undefined,
> {
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
  /**
   * The `ThreadState` members the tool uses (`['readFile', 'env']`). The tool then receives a state limited to them
   * (plus the thread's identity); using another member throws an error naming it. Without `uses`, the whole state.
   */
  uses?: U;
  /**
   * What happens to a call of this tool that was interrupted (a crash, a restart, a lost worker) before its result
   * was stored: `'rerun'` (the default) runs it again, with `state.execution.attempt` 2, 3, …; `'fail'` does not run
   * it again and stores a tool error with `error_code: 'interrupted'` instead (for a tool that must not repeat its
   * side effect, such as a payment).
   */
  onInterrupt?: InterruptPolicy;
  /**
   * Human approval of the tool's calls (an extension; without it the tool runs as the spec says). `'always'`: every
   * call waits for a person to approve it (optionally with edited arguments) or deny it before it runs; a function
   * decides per call from the thread's state and the validated arguments (`(state, args) => args.amount > 100`).
   * While a call waits, the thread stops before running it; a denial becomes a tool error the model sees.
   */
  approval?: ToolApproval<A>;
  /**
   * How long an approval request waits (milliseconds) before it resolves as a denial that says it expired. Without
   * it, a request waits until someone decides.
   */
  approvalTimeout?: number;
  /** Runs the tool with the thread's state and the validated arguments. */
  execute: UsesAwareExecute<A, U>;
}

/** When a call of a tool waits for a human decision (see `ToolDefinition.approval`). */
export type ToolApproval<A extends AnyZodObject | undefined = AnyZodObject | undefined> =
  | "always"
  | ((state: ThreadState, args: ToolArgsOf<A>) => boolean | Promise<boolean>);

/** `approval` of a tool whose argument type is not known statically. */
export type AnyToolApproval = "always" | ((state: ThreadState, args: Record<string, unknown>) => boolean | Promise<boolean>);

/** What the runtime does with a tool call or effect interrupted before it finished (see `ToolDefinition.onInterrupt`). */
export type InterruptPolicy = "rerun" | "fail";

/** Schema of `onInterrupt` (tools and effects). */
export const interruptPolicySchema = z.enum(["rerun", "fail"], {
  error: "onInterrupt must be 'rerun' (run it again after an interruption, the default) or 'fail' (never run it twice)",
});

/** `execute` of a tool whose argument type is not known statically. */
export type AnyToolExecute = (state: ThreadState, args: Record<string, unknown>) => unknown;

/** Defines a tool; `args` is inferred so that `execute` receives `z.infer<typeof args>`. Returns its input. */
export function defineTool<
  A extends AnyZodObject | undefined = undefined,
  const U extends readonly ThreadStateMember[] | undefined = undefined,
>(definition: ToolDefinition<A, U>): ToolDefinition<A, U> {
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
  uses: z
    .array(
      z.enum(THREAD_STATE_MEMBERS, {
        error: (issue) => `uses: ${JSON.stringify(issue.input)} is not a ThreadState member (for example "readFile" or "env")`,
      }),
      { error: "uses must be a list of ThreadState member names, e.g. ['readFile', 'env']" },
    )
    .optional(),
  onInterrupt: interruptPolicySchema.optional(),
  approval: z
    .custom<AnyToolApproval>((v) => v === "always" || typeof v === "function", {
      error: (i) =>
        `approval must be 'always' or a function (state, args) => boolean, e.g. approval: (state, args) => args.amount > 100 (got ${JSON.stringify(i.input) ?? typeof i.input})`,
    })
    .optional(),
  approvalTimeout: z
    .number({ error: "approvalTimeout must be a number of milliseconds, e.g. approvalTimeout: 15 * 60_000" })
    .int({ error: "approvalTimeout must be a whole number of milliseconds" })
    .positive({ error: "approvalTimeout must be greater than 0 (milliseconds)" })
    .optional(),
  execute: functionSchema<AnyToolExecute>("execute", "execute: async (state, args) => { ... }"),
});

/** Field names a tool definition accepts. */
export const TOOL_DEFINITION_KEYS: readonly string[] = Object.keys(toolDefinitionObject.shape);

/** Schema of a tool definition (the default export of a tool file). Unknown keys are dropped. */
export const toolDefinitionSchema = toolDefinitionObject
  .superRefine((tool, ctx) => {
    if (tool.approvalTimeout !== undefined && tool.approval === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["approvalTimeout"],
        message: "approvalTimeout has no effect without approval: add approval: 'always' (or a function), or remove approvalTimeout",
      });
    }
  })
  .transform((tool) => ({
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
