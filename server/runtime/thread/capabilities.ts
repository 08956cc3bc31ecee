import type { RuntimeCapabilities } from "../kernel/deps";
import { createThreadState } from "../state/thread-state";
import { setChildStatus } from "../subagents/status";
import { invokeTool } from "../tools/invoke-tool";
import { runAgent } from "./run-agent";
import { enqueueMessage, terminateThread } from "./thread-ops";

/** The upper layers' operations the kernel and `ThreadState` call through `RuntimeDeps.capabilities`. */
export function runtimeCapabilities(): RuntimeCapabilities {
  return { threadState: createThreadState, invokeTool, enqueueMessage, terminateThread, setChildStatus, runAgent };
}
