import { z } from "zod";
import type { LlmMessage } from "./llm-message";
import type { Message, MessageUpdates, ToolCall } from "./message";
import { identifierSchema } from "./names";
import type { ThreadState } from "./thread-state";
import type { ToolResult } from "./tool-result";
import { functionSchema } from "./zod-like";

/** The nine hook points, in the order a step meets them. */
export const HOOK_NAMES = [
  "filter_messages",
  "prefilter_llm_history",
  "before_create_message",
  "after_create_message",
  "before_update_message",
  "after_update_message",
  "before_store_tool_result",
  "after_tool_call_success",
  "after_tool_call_failure",
] as const;
/** A hook point name. */
export type HookName = (typeof HOOK_NAMES)[number];

type MaybePromise<T> = T | Promise<T>;

/** The `execute` signature of each hook. */
export interface HookSignatures {
  /** Before context assembly: filter/transform the stored history. */
  filter_messages: (state: ThreadState, messages: Message[]) => MaybePromise<Message[]>;
  /** After context assembly: final adjustments of the messages sent to the model. */
  prefilter_llm_history: (state: ThreadState, messages: LlmMessage[]) => MaybePromise<LlmMessage[]>;
  /** Before a message is stored: return the message to store. */
  before_create_message: (state: ThreadState, message: Message) => MaybePromise<Message>;
  /** After a message is stored. */
  after_create_message: (state: ThreadState, message: Message) => MaybePromise<void>;
  /** Before a message update: return the updates to apply. */
  before_update_message: (
    state: ThreadState,
    messageId: string,
    updates: MessageUpdates,
  ) => MaybePromise<MessageUpdates>;
  /** After a message update. */
  after_update_message: (state: ThreadState, message: Message) => MaybePromise<void>;
  /** Before a tool result is stored: return the result to store. */
  before_store_tool_result: (state: ThreadState, toolCall: ToolCall, result: ToolResult) => MaybePromise<ToolResult>;
  /** After a successful tool call: return a replacement result, or nothing to keep it. */
  after_tool_call_success: (
    state: ThreadState,
    toolCall: ToolCall,
    result: ToolResult,
  ) => MaybePromise<ToolResult | void>;
  /** After a failed tool call: return a recovery result, or nothing to keep the failure. */
  after_tool_call_failure: (state: ThreadState, toolCall: ToolCall, error: Error) => MaybePromise<ToolResult | void>;
}

/** A hook definition for hook point `H`. */
export interface HookDefinition<H extends HookName = HookName> {
  /** Unique hook id, referenced from agent/prompt `hooks`. */
  id: string;
  /** Hook point. */
  hook: H;
  /** Optional description for people. */
  description?: string;
  /** The hook's code; its signature follows from `hook`. */
  execute: HookSignatures[H];
}

/** The spec's names for what hooks receive: the stored message, the model's tool call, the tool's result. */
export type HookMessage = Message;
export type HookToolCall = ToolCall;
export type HookToolResult = ToolResult;
/** The context a hook runs in: the thread's state. */
export type HookContext = ThreadState;
/** What `defineHook` takes, and returns unchanged. */
export type HookDefinitionOptions<H extends HookName = HookName> = HookDefinition<H>;
export type HookDefinitionResult<H extends HookName = HookName> = HookDefinition<H>;

/** A hook definition of any hook point (discriminated by `hook`). */
export type AnyHookDefinition = { [H in HookName]: HookDefinition<H> }[HookName];

/** Defines a hook; the `execute` signature is inferred from `hook`. Returns its input. */
export function defineHook<H extends HookName>(definition: HookDefinition<H>): HookDefinition<H> {
  return definition;
}

const hookDefinitionObject = z.object({
  id: identifierSchema("hook id", "limit_history"),
  hook: z.enum(HOOK_NAMES, {
    error: (issue) =>
      issue.input === undefined
        ? "required: add `hook: 'filter_messages'` (or another hook point)"
        : `hook ${JSON.stringify(issue.input)} is not a hook point: use one of ${HOOK_NAMES.join(", ")}`,
  }),
  description: z.string().optional(),
  execute: functionSchema("execute", "execute: async (state, ...args) => { ... }"),
});

/** Field names a hook definition accepts. */
export const HOOK_DEFINITION_KEYS: readonly string[] = Object.keys(hookDefinitionObject.shape);

/** Schema of a hook definition (the default export of a hook file). Unknown keys are dropped. */
export const hookDefinitionSchema = hookDefinitionObject.transform((hook) => hook as AnyHookDefinition);

/** A parsed hook definition. */
export type ParsedHookDefinition = AnyHookDefinition;
