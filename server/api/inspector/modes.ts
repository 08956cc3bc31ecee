import type { RegistrySnapshot, SubagentEntryConfig } from "@/server/registry";

/** How a child was configured in its parent's prompt: the parts of the mode the registry row does not keep. */
export interface ConfiguredMode {
  immediate: boolean;
  /** The env flag that gates this optional branch, or null. */
  optional: string | null;
  /** Which child side receives the parent's messages (resumable children). */
  receives: "side_a" | "side_b" | null;
  maxInstances: number | null;
}

const NONE: ConfiguredMode = { immediate: false, optional: null, receives: null, maxInstances: null };

/** The subagent entry for `childAgent` in the prompts of `parentAgent`'s sides (first match), or null. */
export function subagentConfig(snap: RegistrySnapshot, parentAgent: string, childAgent: string): SubagentEntryConfig | null {
  const agent = snap.agents.get(parentAgent);
  if (!agent) return null;
  const prompts = [agent.sides.a.prompt, agent.sides.b?.prompt].filter((p): p is string => !!p);
  for (const name of prompts) {
    for (const t of snap.prompts.get(name)?.tools ?? []) {
      if (t.kind === "subagent" && t.name === childAgent) return t.config;
    }
  }
  return null;
}

/** Memoised per snapshot: the same parent/child pair is looked up for every sibling of a big tree. */
const cache = new WeakMap<RegistrySnapshot, Map<string, ConfiguredMode>>();

export function configuredMode(snap: RegistrySnapshot, parentAgent: string | null, childAgent: string): ConfiguredMode {
  if (!parentAgent) return NONE;
  let m = cache.get(snap);
  if (!m) cache.set(snap, (m = new Map()));
  const key = `${parentAgent}\u0000${childAgent}`;
  const hit = m.get(key);
  if (hit) return hit;
  const c = subagentConfig(snap, parentAgent, childAgent);
  const mode: ConfiguredMode = c
    ? {
        immediate: c.immediate !== false,
        optional: c.optional ?? null,
        receives: c.resumable ? c.resumable.receives_messages : null,
        maxInstances: c.resumable ? (c.resumable.maxInstances ?? null) : null,
      }
    : NONE;
  m.set(key, mode);
  return mode;
}
