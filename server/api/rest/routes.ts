import type { App } from "../app-context";
import { getHealth } from "./handlers/health";
import { listAgents, listDiagnostics } from "./handlers/registry";
import {
  createKeyHandler,
  listKeysHandler,
  myVariablesHandler,
  revokeKeyHandler,
  saveMyVariablesHandler,
  saveThreadEnvHandler,
  threadEnvHandler,
} from "./handlers/account";
import {
  agentVariablesHandler,
  createUserHandler,
  deleteUserHandler,
  instanceVariablesHandler,
  listUsersHandler,
  providersHandler,
  saveInstanceVariablesHandler,
  updateUserHandler,
} from "./handlers/admin";
import { providerModelsHandler } from "./handlers/provider-models";
import { ROUTE_METHODS } from "@/server/spec";
import { compareExperimentsHandler, getExperimentHandler, listEvalsHandler, listExperimentsHandler, saveCaseHandler, startExperimentHandler } from "../evals/handlers";
import { metricsHandler } from "../metrics/metrics-handler";
import { mcpServersHandler } from "../mcp/servers-handler";
import { controllerHandler, listEndpointsHandler, threadEndpointHandler } from "../endpoints/handlers";
import type { BuiltInThreadRoute } from "../endpoints/mounted";
import { createRestDispatcher, type Route, type RouteHandler } from "./router";
import { assertThreadAccess } from "../auth/access";
import { loginHandler, logoutHandler, meHandler, setupHandler } from "../auth/handlers";
import { oidcCallbackHandler, oidcLoginHandler } from "../auth/oidc-handlers";
import { costHandler, effectsHandler, filesHandler, logsHandler } from "../threads/data-handlers";
import { streamHandler } from "../threads/stream-handler";
import { decideApprovalHandler, listApprovalsHandler } from "../threads/approval-handlers";
import { forkHandler } from "../threads/fork-handlers";
import { replayHandler } from "../threads/replay-handler";
import { getVariablesHandler, postVariablesHandler, subagentsHandler } from "../threads/subagent-handlers";
import {
  continueHandler,
  createThreadHandler,
  getThreadHandler,
  listMessagesHandler,
  deleteMessageHandler,
  listThreadsHandler,
  postMessageHandler,
  stopHandler,
  terminateHandler,
} from "../threads/thread-handlers";

/**
 * Every route under `/api/threads/:id` first checks that the caller may see that thread (their own or a descendant
 * of their own; admins all): another user's thread is 404, exactly like one that does not exist.
 */
/** The MCP endpoint loads the MCP SDK's server side on its first request, not at start. */
const mcpHandler: RouteHandler<App> = async (ctx) => (await import("../mcp/mcp-handler")).mcpHandler(ctx);

function owned(handler: RouteHandler<App>): RouteHandler<App> {
  return async (ctx) => {
    if (ctx.caller) await assertThreadAccess(ctx.app, ctx.caller, ctx.params.id!);
    return handler(ctx);
  };
}

/** Every REST route of design.md §5, in one table, with what an API key needs for it (router.ts: RouteScope). */
export const routes: Route<App>[] = [
  { method: "GET", path: "/api/health", handler: getHealth },
  { method: "GET", path: "/api/metrics", handler: metricsHandler, scope: "metrics" },
  { method: "POST", path: "/api/auth/login", handler: loginHandler },
  { method: "GET", path: "/api/auth/oidc/login", handler: oidcLoginHandler },
  { method: "GET", path: "/api/auth/oidc/callback", handler: oidcCallbackHandler },
  { method: "POST", path: "/api/auth/logout", handler: logoutHandler, scope: "any" },
  { method: "GET", path: "/api/auth/me", handler: meHandler, scope: "any" },
  { method: "GET", path: "/api/auth/setup", handler: setupHandler },
  { method: "POST", path: "/api/auth/setup", handler: setupHandler },
  { method: "GET", path: "/api/auth/keys", handler: listKeysHandler, scope: "session" },
  { method: "POST", path: "/api/auth/keys", handler: createKeyHandler, scope: "session" },
  { method: "DELETE", path: "/api/auth/keys/:id", handler: revokeKeyHandler, scope: "session" },
  { method: "GET", path: "/api/users", handler: listUsersHandler, scope: "admin" },
  { method: "POST", path: "/api/users", handler: createUserHandler, scope: "admin" },
  { method: "GET", path: "/api/users/me/variables", handler: myVariablesHandler },
  { method: "PUT", path: "/api/users/me/variables", handler: saveMyVariablesHandler },
  { method: "PATCH", path: "/api/users/:id", handler: updateUserHandler, scope: "admin" },
  { method: "DELETE", path: "/api/users/:id", handler: deleteUserHandler, scope: "admin" },
  { method: "GET", path: "/api/variables/instance", handler: instanceVariablesHandler, scope: "admin" },
  { method: "PUT", path: "/api/variables/instance", handler: saveInstanceVariablesHandler, scope: "admin" },
  { method: "GET", path: "/api/variables/agents/:name", handler: agentVariablesHandler },
  { method: "GET", path: "/api/providers", handler: providersHandler },
  { method: "GET", path: "/api/providers/:name/models", handler: providerModelsHandler },
  { method: "GET", path: "/api/agents", handler: listAgents },
  { method: "GET", path: "/api/diagnostics", handler: (ctx) => listDiagnostics(ctx, builtInThreadRoutes) },
  { method: "GET", path: "/api/mcp-servers", handler: mcpServersHandler },
  ...(["POST", "GET", "DELETE"] as const).map((method) => ({ method, path: "/api/mcp", handler: mcpHandler, scope: "mcp" as const })),
  { method: "GET", path: "/api/evals", handler: listEvalsHandler },
  { method: "POST", path: "/api/evals/:name/experiments", handler: startExperimentHandler },
  { method: "POST", path: "/api/evals/:name/cases", handler: saveCaseHandler },
  { method: "GET", path: "/api/experiments", handler: listExperimentsHandler },
  { method: "GET", path: "/api/experiments/compare", handler: compareExperimentsHandler },
  { method: "GET", path: "/api/experiments/:id", handler: getExperimentHandler },
  { method: "POST", path: "/api/threads", handler: createThreadHandler, lite: true },
  { method: "GET", path: "/api/threads", handler: listThreadsHandler },
  { method: "GET", path: "/api/threads/:id", handler: getThreadHandler, lite: true },
  { method: "GET", path: "/api/threads/:id/messages", handler: listMessagesHandler },
  { method: "POST", path: "/api/threads/:id/messages", handler: postMessageHandler, lite: true },
  { method: "DELETE", path: "/api/threads/:id/messages/:messageId", handler: deleteMessageHandler },
  { method: "GET", path: "/api/threads/:id/stream", handler: streamHandler, lite: true },
  { method: "POST", path: "/api/threads/:id/stop", handler: stopHandler },
  { method: "POST", path: "/api/threads/:id/continue", handler: continueHandler },
  { method: "POST", path: "/api/threads/:id/terminate", handler: terminateHandler },
  { method: "GET", path: "/api/threads/:id/logs", handler: logsHandler },
  { method: "POST", path: "/api/threads/:id/logs/:logId/replay", handler: replayHandler },
  { method: "GET", path: "/api/threads/:id/cost", handler: costHandler },
  { method: "GET", path: "/api/threads/:id/effects", handler: effectsHandler },
  { method: "GET", path: "/api/threads/:id/subagents", handler: subagentsHandler },
  { method: "GET", path: "/api/threads/:id/env", handler: threadEnvHandler },
  { method: "PUT", path: "/api/threads/:id/env", handler: saveThreadEnvHandler },
  { method: "GET", path: "/api/threads/:id/variables/:requestId", handler: getVariablesHandler },
  { method: "POST", path: "/api/threads/:id/variables/:requestId", handler: postVariablesHandler },
  { method: "POST", path: "/api/threads/:id/fork", handler: forkHandler },
  { method: "GET", path: "/api/threads/:id/approvals", handler: listApprovalsHandler },
  { method: "POST", path: "/api/threads/:id/approvals/:toolCallId", handler: decideApprovalHandler },
  { method: "GET", path: "/api/threads/:id/fs/*path", handler: filesHandler },
  { method: "POST", path: "/api/threads/:id/fs/*path", handler: filesHandler },
  { method: "DELETE", path: "/api/threads/:id/fs/*path", handler: filesHandler },
];

const THREAD = "/api/threads/:id";

/** The built-in routes under a thread, which thread endpoints may not take over. */
export const builtInThreadRoutes: BuiltInThreadRoute[] = routes
  .filter((r) => r.path.startsWith(THREAD))
  .map((r) => ({ method: r.method, route: r.path.slice(THREAD.length) || "/" }));

// After every built-in route: the thread endpoints of agents/api/** and the controllers of agents/controllers/**,
// resolved per request against the current registry snapshot (a reload remounts them).
routes.push(
  { method: "GET", path: "/api/endpoints", handler: listEndpointsHandler(builtInThreadRoutes) },
  ...ROUTE_METHODS.map((method) => ({ method, path: `${THREAD}/*endpoint`, handler: threadEndpointHandler(builtInThreadRoutes) })),
  ...ROUTE_METHODS.map((method) => ({ method, path: "/api/controllers/*route", handler: controllerHandler })),
);

for (const r of routes) if (r.path.startsWith(THREAD)) r.handler = owned(r.handler);

export function createRestHandler(getApp: () => Promise<App>) {
  return createRestDispatcher(routes, getApp);
}
