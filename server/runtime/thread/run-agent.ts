import { ConflictError, NotFoundError, ValidationError } from "../errors";
import type { RuntimeDeps } from "../kernel/deps";
import { syncRegistryStatus } from "../subagents/status";

/**
 * `state.runAgent(agentName)`: `agentName` becomes the thread's active agent and runs on the thread's current history,
 * like a handoff without a tool call. A new session begins (an `ai_human` agent's side A acts; a `dual_ai` agent's
 * session starts at side A with its turn counters at zero). Resolves once the run is durable:
 * - the thread is idle (or waiting): it is marked running with a turn requested, and an activation is scheduled;
 * - a turn is in progress (called from a tool of that turn): the new agent takes over at the turn's next step, exactly
 *   as after a handoff, so the running activation is not doubled.
 */
export async function runAgent(deps: RuntimeDeps, threadId: string, agentName: string): Promise<void> {
  const defs = deps.definitions();
  if (!defs.agent(agentName)) {
    const known = defs.agentNames();
    throw new ValidationError(
      `runAgent: agent "${agentName}" is not defined. ${known.length > 0 ? `Defined agents: ${known.join(", ")}.` : "No agents are defined."} ` +
        `Pass one of these names, or add agents/agents/${agentName}.ts.`,
    );
  }
  const schedule = await deps.events.commit(async (tx, emit) => {
    const t = await tx.threads.get(threadId);
    if (!t) throw new NotFoundError(`Thread ${threadId} not found`);
    if (t.status === "terminated") throw new ConflictError(`runAgent: thread ${threadId} is terminated`);
    const inTurn = t.status === "running" && t.state.turn?.active === true;
    const state = {
      ...t.state,
      session: { ended: false },
      turnsCompleted: { a: 0, b: 0 },
      immediateDone: [],
      promptActivation: (t.state.promptActivation ?? 0) + 1,
      ...(inTurn ? {} : { turn: null, continueRequested: true }),
    };
    await tx.threads.update(threadId, { agentId: agentName, status: "running", state });
    if (t.agentId !== agentName) await emit(threadId, { type: "thread.handoff", from: t.agentId, to: agentName });
    if (t.status !== "running") {
      await emit(threadId, { type: "thread.status", status: "running", stopReason: t.stopReason });
      await syncRegistryStatus(tx, emit, threadId, "idle", "running");
    }
    return !inTurn;
  });
  if (schedule) await deps.schedule(threadId);
}
