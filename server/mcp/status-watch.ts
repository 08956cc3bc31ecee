import type { McpClientPort, McpServerStatus } from "@/server/runtime/ports";

/**
 * The pool `pool`, reporting its servers' state after each call begins and settles (a connection attempt, a failure,
 * a reconnect), at most once per microtask. For a runtime that runs on another thread than the API that shows the
 * state (RUNTIME_THREAD=1, server/worker/runtime-thread.ts).
 */
export function watchMcpStatus(pool: McpClientPort, onChange: (servers: McpServerStatus[]) => void): McpClientPort {
  let last = "";
  let queued = false;
  const report = () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      const servers = pool.status();
      const text = JSON.stringify(servers);
      if (text === last) return;
      last = text;
      onChange(servers);
    });
  };
  const watched = <T>(call: Promise<T>): Promise<T> => {
    report();
    return call.finally(report);
  };
  return {
    listTools: (server, signal) => watched(pool.listTools(server, signal)),
    callTool: (server, tool, args, options) => watched(pool.callTool(server, tool, args, options)),
    status: () => pool.status(),
    close: () => pool.close(),
  };
}
