import type { StopInfo, ThreadStatus } from "./types";

/** What a stop reason code means, in words a user reads in the status line. */
const REASONS: Record<string, string> = {
  response: "replied",
  stop_tool: "finished its turn with its stop tool",
  session_stop: "The session ended successfully",
  session_fail: "The session ended with a failure",
  max_steps: "Stopped: the side reached its step limit",
  max_session_turns: "Stopped: the session reached its turn limit",
  max_total_steps: "Stopped: the run reached the global step ceiling",
  user_stop: "Stopped by you",
  error: "Stopped by an error",
};

export function stopReasonText(code: string): string {
  return REASONS[code] ?? `Stopped (${code})`;
}

export interface StatusLine {
  tone: "working" | "waiting" | "stopped" | "error" | "ended";
  text: string;
  detail: string | null;
  /** Offer "Continue" (run on without a message). */
  canContinue: boolean;
}

/** The one line under the conversation: working, waiting for you, or why it stopped. */
export function statusLine(opts: {
  status: ThreadStatus;
  stop: StopInfo | null;
  stopReason: string | null;
  dual: boolean;
  activeTool: string | null;
  streamingLabel: string | null;
}): StatusLine {
  const { status, stop, dual } = opts;
  if (status === "terminated") {
    const reason = stop?.reason ?? opts.stopReason;
    const text =
      reason === "session_stop" || reason === "stop_tool" || reason === "response"
        ? "Finished"
        : reason
          ? stopReasonText(reason)
          : "Terminated";
    return { tone: "ended", text, detail: stop?.detail ?? null, canContinue: false };
  }
  if (status === "running") {
    const text = opts.activeTool
      ? `Working… running ${opts.activeTool}`
      : opts.streamingLabel
        ? `${opts.streamingLabel} is replying…`
        : "Working…";
    return { tone: "working", text, detail: null, canContinue: false };
  }
  const reason = stop?.reason ?? opts.stopReason;
  if (reason === "error")
    return { tone: "error", text: stopReasonText("error"), detail: stop?.detail ?? null, canContinue: true };
  if (reason === "user_stop")
    return {
      tone: "stopped",
      text: `${stopReasonText("user_stop")}. Send a message or continue.`,
      detail: null,
      canContinue: true,
    };
  if (reason === "max_steps" || reason === "max_total_steps")
    return { tone: "stopped", text: stopReasonText(reason), detail: stop?.detail ?? null, canContinue: true };
  if (dual) {
    if (reason === "session_stop" || reason === "session_fail" || reason === "max_session_turns") {
      return {
        tone: reason === "session_stop" ? "ended" : "stopped",
        text: stopReasonText(reason),
        detail: stop?.detail ?? null,
        canContinue: false,
      };
    }
    return { tone: "waiting", text: "Idle: post as either side to go on", detail: null, canContinue: true };
  }
  return { tone: "waiting", text: "Waiting for you", detail: null, canContinue: false };
}
