import type { HookName, HookSignatures, ParsedHookDefinition, ThreadState } from "@/server/spec";
import type { Definitions } from "../definitions";
import { redactText } from "../env/redact";
import { threadSecrets } from "./thread-secrets";
import type { RuntimeDeps } from "./deps";

/** What hooks run with: the active hook list, the thread, and a lazily created `ThreadState`. */
export interface HookContext {
  deps: RuntimeDeps;
  threadId: string;
  hooks: readonly ParsedHookDefinition[];
  state: () => ThreadState;
}

/**
 * The hooks active for a prompt: the prompt's `hooks` when it declares them, otherwise the agent's (spec: a prompt's
 * hooks override the agent's), in the order listed. Unknown ids are skipped (the registry reports them).
 */
export function activeHooks(defs: Definitions, agentName: string, promptName: string | undefined): ParsedHookDefinition[] {
  const prompt = promptName ? defs.prompt(promptName) : undefined;
  const ids = prompt?.hooks ?? defs.agent(agentName)?.hooks ?? [];
  return ids.map((id) => defs.hook(id)).filter((h): h is ParsedHookDefinition => h !== undefined);
}

type Exec<H extends HookName> = HookSignatures[H];

/**
 * Run every hook of one point in order. A transforming hook's result feeds the next; a hook that throws, or returns
 * something unusable, is logged (and recorded as a `hook.failed` event) and skipped: history is never corrupted.
 */
export async function runHooks<H extends HookName, V>(
  hc: HookContext | null,
  name: H,
  initial: V,
  call: (execute: Exec<H>, state: ThreadState, value: V) => Promise<unknown>,
  accept: (out: unknown, value: V) => V | undefined = (out) => (out === undefined ? undefined : (out as V)),
): Promise<V> {
  if (!hc) return initial;
  let value = initial;
  for (const hook of hc.hooks) {
    if (hook.hook !== name) continue;
    try {
      const out = await call(hook.execute as Exec<H>, hc.state(), value);
      const next = accept(out, value);
      if (next !== undefined) value = next;
    } catch (err) {
      const raw = err instanceof Error ? err.message : String(err);
      const message = redactText(raw, await threadSecrets(hc.deps, hc.threadId).catch(() => []));
      hc.deps.log("warn", `hook ${hook.id} (${name}) failed; continuing without it`, { threadId: hc.threadId, error: message });
      await hc.deps.events.emit(hc.threadId, { type: "hook.failed", hookId: hook.id, hook: name, error: message }).catch(() => {});
    }
  }
  return value;
}

/** Whether any hook of the point is active (to skip work when none is). */
export const hasHook = (hc: HookContext | null, name: HookName): boolean => !!hc && hc.hooks.some((h) => h.hook === name);
