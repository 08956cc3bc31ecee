import type { ThreadState } from "./thread-state";

/** Every member of `ThreadState`, by name (the names a tool's `uses` may list). */
export const THREAD_STATE_MEMBERS = [
  "threadId",
  "agentId",
  "userId",
  "createdAt",
  "children",
  "terminated",
  "getMessages",
  "getMessage",
  "injectMessage",
  "queueMessage",
  "updateMessage",
  "deleteMessage",
  "getLogs",
  "loadModel",
  "loadPrompt",
  "loadAgent",
  "getChildThread",
  "getParentThread",
  "getPromptNames",
  "getAgentNames",
  "getModelNames",
  "env",
  "setEnv",
  "notifyParent",
  "setStatus",
  "queueTool",
  "invokeTool",
  "scheduleEffect",
  "getScheduledEffects",
  "removeScheduledEffect",
  "emit",
  "context",
  "writeFile",
  "readFile",
  "readFileStream",
  "statFile",
  "readdirFile",
  "unlinkFile",
  "mkdirFile",
  "rmdirFile",
  "getFileStats",
  "grepFiles",
  "findFiles",
  "getFileThumbnail",
  "execution",
  "terminate",
  "runAgent",
  "_notPackableRuntimeContext",
] as const satisfies readonly (keyof ThreadState)[];

/** A `ThreadState` member name. */
export type ThreadStateMember = (typeof THREAD_STATE_MEMBERS)[number];

// Compile-time check that the list above names every member.
type MissingMembers = Exclude<keyof ThreadState, ThreadStateMember>;
const everyMemberListed: [MissingMembers] extends [never] ? true : MissingMembers = true;
void everyMemberListed;

/** Members every tool may read, whatever its `uses` says: the thread's identity. */
export const ALWAYS_AVAILABLE_MEMBERS = ["threadId", "agentId", "userId", "createdAt"] as const satisfies readonly ThreadStateMember[];

/** The state a tool declaring no `uses` receives: the whole `ThreadState`. */
export type EmptyUsesState = ThreadState;
/** The state a tool declaring `uses: U` receives: the identity plus the members it lists. */
export type UsesConstrainedState<U extends ThreadStateMember> = Pick<ThreadState, U | (typeof ALWAYS_AVAILABLE_MEMBERS)[number]>;
/** `UsesConstrainedState` of a `uses` list, or the whole state without one. */
export type ResolveUsesState<U extends readonly ThreadStateMember[] | undefined> = U extends readonly ThreadStateMember[]
  ? UsesConstrainedState<U[number]>
  : EmptyUsesState;
