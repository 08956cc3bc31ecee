import type { ThreadStatus } from "@/components/chat/types";

export type OutcomeTone = "running" | "waiting" | "success" | "failure" | "stopped" | "ended";

export interface Outcome {
  label: string;
  tone: OutcomeTone;
}

/** Stop reasons a terminated thread finished well with (its session or stop tool said so, or it replied). */
const SUCCESS = new Set(["session_stop", "stop_tool", "response"]);
const FAILURE = new Set(["session_fail", "error"]);
const LIMIT = new Set(["max_steps", "max_session_turns", "max_total_steps"]);

/**
 * What a thread's status means to a reader: a child that ended its session successfully is "Finished", one that
 * reported a failure "Failed", one a user stopped "Stopped"; only a thread terminated without a known outcome reads
 * "Terminated".
 */
export function threadOutcome(status: ThreadStatus, stopReason: string | null | undefined): Outcome {
  if (status === "running") return { label: "Running", tone: "running" };
  if (status === "idle") return { label: "Waiting", tone: "waiting" };
  if (stopReason && SUCCESS.has(stopReason)) return { label: "Finished", tone: "success" };
  if (stopReason && FAILURE.has(stopReason)) return { label: "Failed", tone: "failure" };
  if (stopReason === "user_stop") return { label: "Stopped", tone: "stopped" };
  if (stopReason && LIMIT.has(stopReason)) return { label: "Ended at a limit", tone: "stopped" };
  return { label: "Terminated", tone: "ended" };
}
