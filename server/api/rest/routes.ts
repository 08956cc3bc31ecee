import type { App } from "@/server/worker/app";
import { getHealth } from "./handlers/health";
import { listAgents, listDiagnostics } from "./handlers/registry";
import { createRestDispatcher, type Route } from "./router";
import { loginHandler, logoutHandler, meHandler } from "../auth/handlers";
import { costHandler, effectsHandler, filesHandler, logsHandler } from "../threads/data-handlers";
import { streamHandler } from "../threads/stream-handler";
import { getVariablesHandler, postVariablesHandler, subagentsHandler } from "../threads/subagent-handlers";
import {
  continueHandler,
  createThreadHandler,
  getThreadHandler,
  listMessagesHandler,
  listThreadsHandler,
  postMessageHandler,
  stopHandler,
  terminateHandler,
} from "../threads/thread-handlers";

/** Every REST route of design.md §5, in one table. */
export const routes: Route<App>[] = [
  { method: "GET", path: "/api/health", handler: getHealth },
  { method: "POST", path: "/api/auth/login", handler: loginHandler },
  { method: "POST", path: "/api/auth/logout", handler: logoutHandler },
  { method: "GET", path: "/api/auth/me", handler: meHandler },
  { method: "GET", path: "/api/agents", handler: listAgents },
  { method: "GET", path: "/api/diagnostics", handler: listDiagnostics },
  { method: "POST", path: "/api/threads", handler: createThreadHandler },
  { method: "GET", path: "/api/threads", handler: listThreadsHandler },
  { method: "GET", path: "/api/threads/:id", handler: getThreadHandler },
  { method: "GET", path: "/api/threads/:id/messages", handler: listMessagesHandler },
  { method: "POST", path: "/api/threads/:id/messages", handler: postMessageHandler },
  { method: "GET", path: "/api/threads/:id/stream", handler: streamHandler },
  { method: "POST", path: "/api/threads/:id/stop", handler: stopHandler },
  { method: "POST", path: "/api/threads/:id/continue", handler: continueHandler },
  { method: "POST", path: "/api/threads/:id/terminate", handler: terminateHandler },
  { method: "GET", path: "/api/threads/:id/logs", handler: logsHandler },
  { method: "GET", path: "/api/threads/:id/cost", handler: costHandler },
  { method: "GET", path: "/api/threads/:id/effects", handler: effectsHandler },
  { method: "GET", path: "/api/threads/:id/subagents", handler: subagentsHandler },
  { method: "GET", path: "/api/threads/:id/variables/:requestId", handler: getVariablesHandler },
  { method: "POST", path: "/api/threads/:id/variables/:requestId", handler: postVariablesHandler },
  { method: "GET", path: "/api/threads/:id/fs/*path", handler: filesHandler },
  { method: "POST", path: "/api/threads/:id/fs/*path", handler: filesHandler },
  { method: "DELETE", path: "/api/threads/:id/fs/*path", handler: filesHandler },
];

export function createRestHandler(getApp: () => Promise<App>) {
  return createRestDispatcher(routes, getApp);
}
