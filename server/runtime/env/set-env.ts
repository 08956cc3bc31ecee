import type { RuntimeDeps } from "../thread/deps";

/**
 * `state.setEnv` (design.md §4): write the value on the thread (encrypted when the graph declares the variable
 * secret), then propagate it to every active descendant, recursively, without touching their other values. A
 * descendant whose own graph declares the variable `scoped` keeps its own value (scoped variables do not inherit).
 */
export async function setThreadEnv(deps: RuntimeDeps, threadId: string, name: string, value: string): Promise<void> {
  const p = deps.persistence;
  const defs = deps.definitions();
  const write = async (id: string, agentId: string) => {
    const secret = defs.graphVariables(agentId).some((v) => v.name === name && v.type === "secret");
    if (secret && !deps.secrets) throw new Error(`Cannot store secret ${name}: no secrets key is configured`);
    await p.env.set("thread", id, name, secret ? "secret" : "text", secret ? deps.secrets!.encrypt(value) : value);
  };
  const root = await p.threads.get(threadId);
  if (!root) return;
  await write(root.id, root.agentId);
  const queue = [root.id];
  while (queue.length > 0) {
    const parentId = queue.shift()!;
    const { threads } = await p.threads.list({ parentId, limit: 10_000 });
    for (const child of threads) {
      if (child.status === "terminated") continue;
      const scoped = defs.graphVariables(child.agentId).some((v) => v.name === name && v.scoped);
      if (scoped) continue;
      await write(child.id, child.agentId);
      queue.push(child.id);
    }
  }
}
