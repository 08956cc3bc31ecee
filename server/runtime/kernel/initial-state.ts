import type { ThreadRuntimeState } from "../ports";

export function initialThreadState(): ThreadRuntimeState {
  return {
    turn: null,
    turnsCompleted: { a: 0, b: 0 },
    lastTurnEndSeq: { a: 0, b: 0 },
    activationSteps: 0,
    session: { ended: false },
    immediateDone: [],
  };
}
