import type { Log, ThreadState } from "@/server/spec";
import { NotFoundError } from "../errors";
import { resolveEnvValue } from "../env/env-resolver";
import { loadStepContext } from "../kernel/step-context";
import { setThreadEnv } from "./set-env";
import type { StateScope } from "../kernel/deps";

/** Resource loading, logs and env members of `ThreadState`. */
export function resourcesApi(scope: StateScope): Pick<
  ThreadState,
  "getLogs" | "loadModel" | "loadPrompt" | "loadAgent" | "getPromptNames" | "getAgentNames" | "getModelNames" | "env" | "setEnv"
> {
  const defs = () => scope.deps.definitions();
  const load = <T>(kind: string, v: unknown, name: string): T => {
    if (!v) throw new NotFoundError(`${kind} ${name} is not defined`);
    return v as T;
  };
  return {
    async getLogs(o = {}) {
      // The store pages in the requested order, so `limit` with `desc` gives the newest rows.
      const rows = await scope.deps.persistence.llmLogs.list(scope.thread.id, { limit: o.limit, offset: o.offset, order: o.order ?? "asc" });
      return rows.map(
        (l): Log => ({
          id: l.id,
          thread_id: l.threadId,
          message_id: l.messageId,
          model_name: l.modelName,
          model: l.modelId,
          provider: l.provider,
          side: l.side,
          input_tokens: l.inputTokens,
          output_tokens: l.outputTokens,
          cached_tokens: l.cachedTokens,
          latency_ms: l.latencyMs ?? 0,
          cost_usd: l.cost,
          status: l.status,
          error: l.error,
          created_at: l.startedAt.getTime() * 1000,
        }),
      );
    },
    loadModel: async <T>(name: string) => load<T>("Model", defs().model(name), name),
    loadPrompt: async <T>(name: string) => load<T>("Prompt", defs().prompt(name), name),
    loadAgent: async <T>(name: string) => load<T>("Agent", defs().agent(name), name),
    getPromptNames: () => defs().promptNames(),
    getAgentNames: () => defs().agentNames(),
    getModelNames: () => defs().modelNames(),
    async env(name) {
      // Fresh sources each time: an earlier setEnv in the same step must be visible.
      const ctx = await loadStepContext(scope.deps, scope.thread, scope.side);
      if (scope.ctx) ctx.env.prompt = scope.ctx.env.prompt;
      const v = resolveEnvValue(name, { ...ctx.env, toolConfig: scope.toolConfigEnv }, scope.deps.secrets);
      if (!v) {
        throw new NotFoundError(
          `Variable ${name} is not defined for thread ${scope.thread.id}: set it on the thread, the user, the instance, or in a definition's env`,
        );
      }
      return v.value;
    },
    async setEnv(name, value) {
      await setThreadEnv(scope.deps, scope.thread.id, name, value);
    },
  };
}
