import { describe, expect, it } from "vitest";
import { threadOutcome } from "./outcome";

describe("threadOutcome", () => {
  it("a child that ended its session successfully is Finished, not a grey Terminated", () => {
    expect(threadOutcome("terminated", "session_stop")).toEqual({ label: "Finished", tone: "success" });
    expect(threadOutcome("terminated", "stop_tool").tone).toBe("success");
  });
  it("failures, user stops and limits say so", () => {
    expect(threadOutcome("terminated", "session_fail")).toEqual({ label: "Failed", tone: "failure" });
    expect(threadOutcome("terminated", "error").label).toBe("Failed");
    expect(threadOutcome("terminated", "user_stop").label).toBe("Stopped");
    expect(threadOutcome("terminated", "max_session_turns").label).toBe("Ended at a limit");
  });
  it("running and idle threads read as such whatever their last stop", () => {
    expect(threadOutcome("running", "session_stop").label).toBe("Running");
    expect(threadOutcome("idle", "response").label).toBe("Waiting");
  });
  it("a child that replied and was ended by the runtime is Finished; a top-level thread ended after a reply was terminated", () => {
    expect(threadOutcome("terminated", "response").label).toBe("Finished");
    expect(threadOutcome("terminated", "response", false)).toEqual({ label: "Terminated", tone: "ended" });
    expect(threadOutcome("terminated", "session_stop", false).label).toBe("Finished");
  });
  it("a thread terminated without a known reason is Terminated", () => {
    expect(threadOutcome("terminated", null)).toEqual({ label: "Terminated", tone: "ended" });
  });
});
