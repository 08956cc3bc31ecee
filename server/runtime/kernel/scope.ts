import type { ThreadState } from "@/server/spec";
import { activeHooks, type HookContext } from "./hook-runner";
import type { Side, SubagentRecord, ThreadRecord } from "../ports";
import type { StepContext } from "./step-context";
import type { RuntimeDeps } from "./deps";

/**
 * Where a piece of runtime work happens: the thread, the acting side, and (inside a step) the step context. Tools,
 * hooks, effects and message writes all run in a scope; `ThreadState` is built from one.
 */
export interface StateScope {
  deps: RuntimeDeps;
  thread: ThreadRecord;
  side: Side;
  signal: AbortSignal;
  stepId: string;
  ctx?: StepContext;
  /** The env of the tool config (`{name, env}` on the prompt) when a tool runs. */
  toolConfigEnv?: Record<string, string>;
  options?: Record<string, unknown>;
  /** Work started by synchronous APIs (queueTool); the caller awaits it. */
  pending?: Promise<unknown>[];
  /** `state.context`: in-memory for the current execution (the activation's object when one is running). */
  context?: Record<string, unknown>;
  /** The thread's child registry, as loaded for this scope (`state.children`). */
  children?: SubagentRecord[];
}

/** A scope outside any step (message delivery, API writes, effects). */
export function bareScope(deps: RuntimeDeps, thread: ThreadRecord, side?: Side): StateScope {
  return { deps, thread, side: side ?? thread.state.turn?.side ?? "a", signal: new AbortController().signal, stepId: "" };
}

/** The prompt whose hooks apply in this scope: the step's prompt, else the acting side's prompt. */
export function scopePromptName(scope: StateScope): string | undefined {
  if (scope.ctx) return scope.ctx.prompt.name;
  const agent = scope.deps.definitions().agent(scope.thread.agentId);
  const side = scope.side === "b" ? agent?.sideB : agent?.sideA;
  return side?.prompt;
}

/** What the hooks active in this scope run with (null when none is active); their `ThreadState` is built on first use. */
export function hookContext(scope: StateScope): HookContext | null {
  const hooks = activeHooks(scope.deps.definitions(), scope.thread.agentId, scopePromptName(scope));
  if (hooks.length === 0) return null;
  let state: ThreadState | null = null;
  return {
    deps: scope.deps,
    threadId: scope.thread.id,
    hooks,
    state: () => (state ??= scope.deps.capabilities.threadState(scope)),
  };
}
