import type { Definitions } from "../definitions";
import type { ThreadRecord } from "../ports";
import type { StepContext } from "../kernel/step-context";
import type { RuntimeDeps } from "../kernel/deps";
import type { SubagentEntry } from "../kernel/tool-call-context";
import { branchEnabled } from "./offered";
import { spawnChild } from "./spawn";

/** The prompt's `immediate` subagent entries. */
export function immediateEntries(defs: Definitions, promptName: string): SubagentEntry[] {
  return defs.promptTools(promptName).filter((e): e is SubagentEntry => e.kind === "subagent" && !!e.config.immediate);
}

/**
 * Immediate execution (spec §7.6): when a prompt becomes active (thread creation, handoff to a new prompt), its
 * immediate subagents are spawned before its first model step, once per activation of the prompt; children do the
 * same when they activate, so it is recursive. Object form: `scopedEnv` values are copied into the child and never
 * shown to a model; the `nameEnv` value names the instance and the `descriptionEnv` value is its first message (the
 * only env values that may reach the child's model). Without hints the child starts with no message, idle.
 */
export async function runImmediate(deps: RuntimeDeps, thread: ThreadRecord, ctx: StepContext): Promise<void> {
  const prompt = ctx.prompt.name;
  if (thread.state.immediateDone.includes(prompt)) return;
  const activation = thread.state.promptActivation ?? 0;
  for (const entry of immediateEntries(ctx.defs, prompt)) {
    if (!(await branchEnabled(ctx, entry.config))) continue;
    const hints = typeof entry.config.immediate === "object" ? entry.config.immediate : {};
    const value = async (name: string | undefined) => (name ? ((await ctx.lookupEnv(name))?.value ?? null) : null);
    const scopedEnv: Record<string, string> = {};
    for (const name of hints.scopedEnv ?? []) {
      const v = await value(name);
      if (v !== null) scopedEnv[name] = v;
    }
    const result = await spawnChild(deps, {
      parent: thread,
      agentName: entry.name,
      toolName: entry.name,
      toolCallId: `immediate:${prompt}:${entry.index}:${activation}`,
      spawnGroupId: `immediate:${prompt}:${activation}`,
      blocking: false,
      resumable: entry.config.resumable,
      message: await value(hints.descriptionEnv),
      messageRole: entry.config.resumable && entry.config.resumable.receives_messages === "side_b" ? "assistant" : "user",
      attachments: [],
      threadName: await value(hints.nameEnv),
      scopedEnv,
    });
    if (!result.ok) {
      deps.log("warn", `immediate subagent ${entry.name} needs scoped variables ${result.missing.join(", ")}; not started`, { threadId: thread.id });
    }
  }
  await deps.persistence.transaction(async (tx) => {
    const fresh = (await tx.threads.get(thread.id)) ?? thread;
    await tx.threads.update(thread.id, { state: { ...fresh.state, immediateDone: [...fresh.state.immediateDone, prompt] } });
  });
}
