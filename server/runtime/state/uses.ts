import { ALWAYS_AVAILABLE_MEMBERS, THREAD_STATE_MEMBERS, type ThreadState, type ThreadStateMember } from "@/server/spec";

const MEMBERS = new Set<string>(THREAD_STATE_MEMBERS);

/**
 * The state a tool that declares `uses` receives: its members are those listed (and the thread's identity); using
 * any other `ThreadState` member throws an error that names the member and the declaration to extend. Without
 * `uses`, the state is returned as it is.
 */
export function limitToUses(state: ThreadState, uses: readonly ThreadStateMember[] | undefined, toolName: string): ThreadState {
  if (!uses) return state;
  const allowed = new Set<string>([...uses, ...ALWAYS_AVAILABLE_MEMBERS]);
  return new Proxy(state, {
    get(target, prop, receiver) {
      if (typeof prop === "string" && MEMBERS.has(prop) && !allowed.has(prop)) {
        const listed = uses.map((u) => `'${u}'`);
        throw new Error(
          `Tool ${toolName} used state.${prop}, which its \`uses\` declaration does not list. ` +
            `Add it in agents/tools/${toolName}.ts: uses: [${[...listed, `'${prop}'`].join(", ")}].`,
        );
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}
