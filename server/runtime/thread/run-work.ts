import { runEffect } from "../effects/run-effect";
import type { WorkItemRecord } from "../ports";
import type { RuntimeDeps } from "../kernel/deps";
import { runActivation } from "./executor";

/** Dispatch one claimed work item by kind. */
export async function runWork(deps: RuntimeDeps, item: WorkItemRecord): Promise<void> {
  switch (item.kind) {
    case "run":
      if (item.threadId) await runActivation(deps, item.threadId);
      return;
    case "effect": {
      const effectId = item.payload.effectId;
      if (typeof effectId === "string") await runEffect(deps, effectId);
      return;
    }
    default:
      deps.log("warn", `unknown work item kind ${item.kind}; dropping it`, { itemId: item.id });
  }
}
