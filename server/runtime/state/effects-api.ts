import type { ScheduledEffect, ThreadState } from "@/server/spec";
import { NotFoundError, ValidationError } from "../errors";
import type { ScheduledEffectRecord } from "../ports";
import type { StateScope } from "../kernel/deps";

export const toScheduledEffect = (r: ScheduledEffectRecord): ScheduledEffect =>
  ({
    id: r.id,
    name: r.name,
    args: r.args,
    scheduledAt: r.createdAt.getTime(),
    runAt: r.runAt.getTime(),
    status: r.status === "cancelled" ? "failed" : r.status,
    attempts: r.attempts,
    lastError: r.lastError ?? undefined,
  }) as ScheduledEffect;

/** Durable effects: a row plus a work item due at `runAt`; they survive restarts. */
export function effectsApi(scope: StateScope): Pick<ThreadState, "scheduleEffect" | "getScheduledEffects" | "removeScheduledEffect"> {
  const { deps, thread } = scope;
  return {
    async scheduleEffect(name, args = {}, delay = 0) {
      const def = deps.definitions().effect(name);
      if (!def) throw new NotFoundError(`Effect ${name} is not defined (agents/effects/${name}.ts)`);
      if (def.args) {
        const r = (def.args as { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }).safeParse(args);
        if (!r.success) {
          const issues = (r.error?.issues ?? []).map((i) => `${i.path.map(String).join(".") || "(args)"}: ${i.message}`).join("; ");
          throw new ValidationError(`Invalid arguments for effect ${name}: ${issues}`);
        }
      }
      if (!Number.isFinite(delay) || delay < 0) throw new ValidationError(`scheduleEffect: delay must be 0 or more milliseconds`);
      const runAt = new Date(Date.now() + delay);
      const effect = await deps.events.commit(async (tx, emit) => {
        const e = await tx.effects.create({ threadId: thread.id, name, args, runAt });
        await tx.work.enqueue({ kind: "effect", threadId: thread.id, payload: { effectId: e.id }, runAt, dedupeKey: `effect:${e.id}` });
        await emit(thread.id, { type: "effect.updated", effectId: e.id, name, status: "pending", attempts: 0 });
        return e;
      });
      deps.wake();
      return effect.id;
    },
    async getScheduledEffects(name) {
      const rows = await deps.persistence.effects.list(thread.id, { name, status: ["pending", "running"] });
      return rows.map(toScheduledEffect);
    },
    async removeScheduledEffect(id) {
      const e = await deps.persistence.effects.get(id);
      if (!e || e.threadId !== thread.id || e.status !== "pending") return false;
      await deps.events.commit(async (tx, emit) => {
        await tx.effects.update(id, { status: "cancelled" });
        await tx.work.cancelEffect(id);
        await emit(thread.id, { type: "effect.updated", effectId: id, name: e.name, status: "cancelled", attempts: e.attempts });
      });
      return true;
    },
  };
}
