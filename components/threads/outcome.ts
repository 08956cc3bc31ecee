import type { ThreadStatus } from "@/components/chat/types";

export type OutcomeTone = "running" | "waiting" | "success" | "failure" | "stopped" | "ended";

export interface Outcome {
  label: string;
  tone: OutcomeTone;
}

/** Stop reasons a terminated thread finished well with (its session or stop tool said so). */
const SUCCESS = new Set(["session_stop", "stop_tool"]);
const FAILURE = new Set(["session_fail", "error"]);
const LIMIT = new Set(["max_steps", "max_session_turns", "max_total_steps"]);

/**
 * What a thread's status means to a reader: a child that ended its session successfully is "Finished", one that
 * reported a failure "Failed", one a user stopped "Stopped"; only a thread terminated without a known outcome reads
 * "Terminated". A child that replied (its last stop `response`) and was then ended by the runtime finished; a top-level
 * thread whose last turn was a reply was ended by someone's terminate, so it reads "Terminated".
 */
export function threadOutcome(status: ThreadStatus, stopReason: string | null | undefined, child = true): Outcome {
  if (status === "running") return { label: "Running", tone: "running" };
  if (status === "idle") return { label: "Waiting", tone: "waiting" };
  if (stopReason && (SUCCESS.has(stopReason) || (child && stopReason === "response"))) return { label: "Finished", tone: "success" };
  if (stopReason && FAILURE.has(stopReason)) return { label: "Failed", tone: "failure" };
  if (stopReason === "user_stop") return { label: "Stopped", tone: "stopped" };
  if (stopReason && LIMIT.has(stopReason)) return { label: "Ended at a limit", tone: "stopped" };
  return { label: "Terminated", tone: "ended" };
}
