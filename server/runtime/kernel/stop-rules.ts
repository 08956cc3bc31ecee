import type { StopReason } from "../ports";

/** A session binding in normalised object form. */
export interface Binding {
  name: string;
  messageProperty?: string;
  attachmentsProperty?: string;
}

/** The side configuration that stop evaluation needs. */
export interface SideStopConfig {
  stopOnResponse: boolean;
  stopTool?: string;
  stopToolResponseProperty?: string;
  sessionStop?: Binding;
  sessionFail?: Binding;
}

export interface ExecutedCall {
  name: string;
  args: Record<string, unknown> | null;
  status: "success" | "error";
  /** The tool's result text (success) or error text. */
  text: string;
}

export type StopDecision =
  | { scope: "none" }
  | { scope: "turn"; reason: Extract<StopReason, "stop_tool" | "response">; call?: ExecutedCall }
  | { scope: "session"; reason: Extract<StopReason, "session_stop" | "session_fail">; call: ExecutedCall; binding: Binding };

/**
 * Stop evaluation after a step's tools ran, in the spec's order (agents.md §5, design.md §4):
 * (1) a successful sessionStop/sessionFail call ends the session (a terminal tool that errored does not);
 * (2) a stopTool call ends the side's turn; (3) stopOnResponse: text with no tool calls ends the turn.
 * Safety limits (4) are checked before each step by the executor.
 */
export function evaluateStops(side: SideStopConfig, step: { calls: ExecutedCall[]; hadToolCalls: boolean }): StopDecision {
  for (const call of step.calls) {
    if (call.status !== "success") continue;
    if (side.sessionFail && call.name === side.sessionFail.name) {
      return { scope: "session", reason: "session_fail", call, binding: side.sessionFail };
    }
    if (side.sessionStop && call.name === side.sessionStop.name) {
      return { scope: "session", reason: "session_stop", call, binding: side.sessionStop };
    }
  }
  if (side.stopTool) {
    const call = step.calls.find((c) => c.name === side.stopTool);
    if (call) return { scope: "turn", reason: "stop_tool", call };
  }
  if (side.stopOnResponse && !step.hadToolCalls) return { scope: "turn", reason: "response" };
  return { scope: "none" };
}

/**
 * The payload a session binding carries: the string value of `messageProperty` (JSON for non-strings), or the tool's
 * own result text when no property is mapped; attachments from `attachmentsProperty` (a path or a list of paths).
 */
export function bindingPayload(binding: Binding, call: ExecutedCall): { message: string; attachments: string[] } {
  let message = call.text;
  if (binding.messageProperty && call.args && binding.messageProperty in call.args) {
    const v = call.args[binding.messageProperty];
    message = typeof v === "string" ? v : JSON.stringify(v);
  }
  const attachments: string[] = [];
  if (binding.attachmentsProperty && call.args) {
    const v = call.args[binding.attachmentsProperty];
    if (typeof v === "string" && v) attachments.push(v);
    else if (Array.isArray(v)) for (const p of v) if (typeof p === "string" && p) attachments.push(p);
  }
  return { message, attachments };
}
