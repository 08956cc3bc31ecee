import type { ThreadState } from "@/server/spec";
import { activeHooks, type HookContext } from "./hook-runner";
import type { Side, ThreadRecord } from "../ports";
import type { RuntimeDeps, StateScope } from "./deps";

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
