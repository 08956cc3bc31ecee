import type { ThreadRecord } from "../ports";
import type { RuntimeDeps } from "./deps";
import { redactDeep, secretValues } from "../env/redact";

/**
 * The plain values of the secrets a thread can see (its own, its user's and the instance's), read fresh: a value set
 * a moment ago by `setEnv` counts. Used to redact text written or announced outside an LLM step.
 */
export async function threadSecrets(deps: RuntimeDeps, threadOrId: ThreadRecord | string): Promise<string[]> {
  if (!deps.secrets) return [];
  const p = deps.persistence;
  const thread = typeof threadOrId === "string" ? await p.threads.get(threadOrId) : threadOrId;
  if (!thread) return [];
  const { thread: own, user, instance } = await p.env.visible(thread.id, thread.userId);
  return secretValues([...own, ...user, ...instance], deps.secrets);
}

/** `value` with the thread's secret values masked (strings anywhere inside it). */
export async function redactForThread<T>(deps: RuntimeDeps, threadOrId: ThreadRecord | string, value: T): Promise<T> {
  return redactDeep(value, await threadSecrets(deps, threadOrId));
}
