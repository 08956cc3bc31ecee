import type { ParsedAgentDefinition } from "@/server/spec";
import type { Side, ThreadRuntimeState } from "../ports";

export const otherSide = (s: Side): Side => (s === "a" ? "b" : "a");

/** Begin a turn of `side`; a turn after an ended session starts a new session. */
export function startTurn(state: ThreadRuntimeState, side: Side, startSeq: number): ThreadRuntimeState {
  const fresh = state.session.ended;
  return {
    ...state,
    turn: { side, active: true, steps: 0, startSeq },
    session: fresh ? { ended: false } : state.session,
    turnsCompleted: fresh ? { a: 0, b: 0 } : state.turnsCompleted,
  };
}

/**
 * End the current turn. `ai_human`: the thread then waits for the human. `dual_ai`: the turn passes to the other
 * side, unless both sides have completed `maxSessionTurns` turns, which ends the session.
 */
export function endTurn(
  state: ThreadRuntimeState,
  agent: ParsedAgentDefinition,
  endSeq: number,
): { state: ThreadRuntimeState; sessionCapReached: boolean } {
  const side = state.turn?.side ?? "a";
  const turnsCompleted = { ...state.turnsCompleted, [side]: state.turnsCompleted[side] + 1 };
  const lastTurnEndSeq = { ...state.lastTurnEndSeq, [side]: endSeq };
  const base = { ...state, turnsCompleted, lastTurnEndSeq };
  if (agent.type !== "dual_ai") return { state: { ...base, turn: null }, sessionCapReached: false };
  const cap = agent.maxSessionTurns;
  if (cap !== undefined && turnsCompleted.a >= cap && turnsCompleted.b >= cap) {
    return { state: { ...base, turn: null }, sessionCapReached: true };
  }
  return { state: { ...base, turn: { side: otherSide(side), active: true, steps: 0, startSeq: endSeq } }, sessionCapReached: false };
}

/** Mark the session ended (no turn is due until a new message arrives). */
export function endSession(
  state: ThreadRuntimeState,
  session: { reason: NonNullable<ThreadRuntimeState["session"]["reason"]>; ok: boolean; result?: string; attachments?: string[] },
): ThreadRuntimeState {
  return { ...state, turn: null, session: { ended: true, ...session } };
}
