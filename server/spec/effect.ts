import { z } from "zod";
import { identifierSchema } from "./names";
import { type InterruptPolicy, interruptPolicySchema } from "./tool";
import type { ThreadState } from "./thread-state";
import { type AnyZodObject, functionSchema, zodObjectSchema } from "./zod-like";

/** The arguments an effect's `execute` receives: the parsed output of `args`, or a plain record without a schema. */
export type EffectArgsOf<A> = A extends AnyZodObject ? z.output<A> : Record<string, unknown>;

/** An effect definition: code scheduled to run later through `state.scheduleEffect`. */
export interface EffectDefinition<
  N extends string = string,
  A extends AnyZodObject | undefined = AnyZodObject | undefined,
> {
  /** Unique effect name, used by `scheduleEffect(name, ...)`. */
  name: N;
  description?: string;
  /** Arguments schema; scheduled arguments are validated against it. */
  args?: A;
  /**
   * An effect interrupted while it ran (a crash, a restart): `'rerun'` (the default) runs it again, with
   * `state.execution.attempt` one higher; `'fail'` marks it failed (`interrupted`) instead of running it twice.
   */
  onInterrupt?: InterruptPolicy;
  /** Runs the effect with the thread's state and the validated arguments. */
  execute: (state: ThreadState, args: EffectArgsOf<A>) => void | Promise<void>;
}

/** Defines an effect; `args` is inferred for `execute`. Returns its input. */
export function defineEffect<N extends string, A extends AnyZodObject | undefined = undefined>(
  definition: EffectDefinition<N, A>,
): EffectDefinition<N, A> {
  return definition;
}

/** `execute` of an effect whose argument type is not known statically. */
export type AnyEffectExecute = (state: ThreadState, args: Record<string, unknown>) => void | Promise<void>;

/** Schema of an effect definition (the default export of an effect file). Unknown keys are dropped. */
export const effectDefinitionSchema = z.object({
  name: identifierSchema("effect name", "send_reminder"),
  description: z.string().optional(),
  args: zodObjectSchema("args").optional(),
  onInterrupt: interruptPolicySchema.optional(),
  execute: functionSchema<AnyEffectExecute>("execute", "execute: async (state, args) => { ... }"),
});
/** A parsed effect definition. */
export type ParsedEffectDefinition = z.output<typeof effectDefinitionSchema>;

/** Status of a scheduled effect. */
export type ScheduledEffectStatus = "pending" | "running" | "done" | "failed";

/** A scheduled run of an effect. */
export interface ScheduledEffect {
  id: string;
  /** Effect name. */
  name: string;
  args: Record<string, unknown>;
  /** When it was scheduled (ms since the epoch). */
  scheduledAt: number;
  /** When it is due (ms since the epoch). */
  runAt: number;
  status?: ScheduledEffectStatus;
  attempts?: number;
  lastError?: string | null;
}
