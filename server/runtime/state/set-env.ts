import type { EnvValueRecord } from "../ports";
import type { RuntimeDeps } from "../kernel/deps";

type EnvType = EnvValueRecord["type"];

/**
 * `state.setEnv` (design.md §4): write the value on the thread, then propagate it to every active descendant,
 * recursively, without touching their other values. A descendant whose own agent declares the variable `scoped`
 * keeps its own value (scoped variables do not inherit); a scoped declaration deeper in its graph does not count.
 *
 * Secret-ness never downgrades: the value is stored encrypted when the thread already holds it as a secret, when it
 * is a secret on the thread it comes from (its user or instance value, for the thread setEnv was called on; the
 * parent's copy, for a descendant), or when the thread's own graph declares it secret.
 */
export async function setThreadEnv(deps: RuntimeDeps, threadId: string, name: string, value: string): Promise<void> {
  const p = deps.persistence;
  const defs = deps.definitions();
  const storedType = async (scope: "thread" | "user" | "instance", owner: string | null): Promise<EnvType | undefined> =>
    owner ? (await p.env.list(scope, owner)).find((r) => r.name === name)?.type : undefined;
  const write = async (id: string, agentId: string, sourceType: EnvType): Promise<EnvType> => {
    const declaredSecret = defs.graphVariables(agentId).some((v) => v.name === name && v.type === "secret");
    const existing = await storedType("thread", id);
    const secret = sourceType === "secret" || existing === "secret" || declaredSecret;
    if (secret && !deps.secrets) throw new Error(`Cannot store secret ${name}: no secrets key is configured`);
    await p.env.set("thread", id, name, secret ? "secret" : "text", secret ? deps.secrets!.encrypt(value) : value);
    return secret ? "secret" : "text";
  };
  const root = await p.threads.get(threadId);
  if (!root) return;
  const inherited = [await storedType("user", root.userId), await storedType("instance", "instance")];
  const rootType = await write(root.id, root.agentId, inherited.includes("secret") ? "secret" : "text");
  const queue: { id: string; type: EnvType }[] = [{ id: root.id, type: rootType }];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    const { threads } = await p.threads.list({ parentId: parent.id, limit: 10_000 });
    for (const child of threads) {
      if (child.status === "terminated") continue;
      const scoped = defs.graphVariables(child.agentId).some((v) => v.name === name && v.scopedInOwnThread);
      if (scoped) continue;
      queue.push({ id: child.id, type: await write(child.id, child.agentId, parent.type) });
    }
  }
}
