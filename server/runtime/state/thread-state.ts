import type { ExecutionState, ThreadState } from "@/server/spec";
import { redactForThread } from "../kernel/thread-secrets";
import { effectsApi } from "./effects-api";
import { familyApi } from "./family-api";
import { filesApi } from "./files-api";
import { messagesApi } from "./messages-api";
import { resourcesApi } from "./resources-api";
import type { StateScope } from "../kernel/deps";
import { subagentMembers } from "./subagent-members";
import { toolsApi } from "./tools-api";

/**
 * The `ThreadState` tools, hooks and effects receive (skill guide: "ThreadState first"): identity, messages, logs,
 * resources, env, parent/children, tools, effects, events, context, files, execution, termination and runAgent.
 */
export function createThreadState(scope: StateScope): ThreadState {
  const { deps, thread } = scope;
  const turn = thread.state.turn;
  const execution: ExecutionState | null = scope.stepId
    ? {
        activationId: scope.stepId,
        side: scope.side,
        agentName: thread.agentId,
        promptName: scope.ctx?.prompt.name ?? "",
        stepCount: thread.state.activationSteps,
        sideStepCount: turn?.steps ?? 0,
        turns: { ...thread.state.turnsCompleted },
        signal: scope.signal,
        toolCallId: scope.run?.toolCallId ?? null,
        attempt: scope.run?.attempt ?? 1,
      }
    : null;
  const members = subagentMembers(scope);
  const state: ThreadState & { options?: Record<string, unknown> } = {
    threadId: thread.id,
    agentId: thread.agentId,
    userId: thread.userId,
    createdAt: thread.createdAt.getTime() * 1000,
    get children() {
      return members.children();
    },
    terminated: thread.terminatedAt,
    // One object per activation (tools, hooks and invoked tools share it); outside an activation, one per scope.
    context: (scope.context ??= deps.aborts.context(thread.id) ?? {}),
    execution,
    options: scope.options,
    ...messagesApi(scope),
    ...resourcesApi(scope),
    ...familyApi(scope, createThreadState),
    setStatus: members.setStatus,
    ...toolsApi(scope),
    ...effectsApi(scope),
    emit(event, data) {
      void redactForThread(deps, thread, { event, data })
        .then((masked) => deps.events.emit(thread.id, { type: "custom", event: masked.event, data: masked.data }))
        .catch((err) => deps.log("warn", "emit failed", { error: String(err) }));
    },
    ...filesApi(scope),
    async terminate() {
      await deps.capabilities.terminateThread(deps, thread.id);
    },
    async runAgent(agentName) {
      await deps.capabilities.runAgent(deps, thread.id, agentName);
    },
  };
  return state;
}
