import type { ThreadState } from "./thread-state";

/** Marks a thread endpoint handler (a `Symbol.for` key, so every copy of the spec module agrees). */
export const THREAD_ENDPOINT_SYMBOL: unique symbol = Symbol.for("standardagents.spec.threadEndpoint") as never;
/** Marks a controller handler. */
export const CONTROLLER_SYMBOL: unique symbol = Symbol.for("standardagents.spec.controller") as never;

/** HTTP methods a file route may answer (`report.post.ts` → POST; no suffix → GET). */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** An HTTP method of a file route. */
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * What an endpoint or a controller returns: a `Response` (sent as it is), a string (`text/plain`), nothing (204) or
 * any JSON-serialisable value (`application/json`; objects go through `JSON.stringify`, so `undefined` fields drop).
 */
export type ControllerReturn = Response | string | number | boolean | null | undefined | void | object;

/** The request of a thread endpoint, with the route's `[params]`. */
export interface ThreadEndpointContext {
  /** Values of the route's `[param]` segments (`items/[itemId]/approve.post.ts` → `{ itemId }`). */
  params: Record<string, string>;
  /** The request URL, parsed. */
  url: URL;
}

/**
 * A thread endpoint (`agents/api/**`): answers `/api/threads/:threadId/<route>` with the thread's state, after the
 * same authentication and owner checks as the built-in thread routes.
 */
export type ThreadEndpointHandler = (
  state: ThreadState,
  request: Request,
  context: ThreadEndpointContext,
) => ControllerReturn | Promise<ControllerReturn>;

/** A thread endpoint handler marked by `defineThreadEndpoint`. */
export type MarkedThreadEndpoint = ThreadEndpointHandler & { readonly [THREAD_ENDPOINT_SYMBOL]: true };

/** Defines a thread endpoint: the default export of a file under `agents/api/`. */
export function defineThreadEndpoint(handler: ThreadEndpointHandler): MarkedThreadEndpoint {
  return Object.assign(handler, { [THREAD_ENDPOINT_SYMBOL]: true as const });
}

/** True when `value` was made by `defineThreadEndpoint`. */
export function isThreadEndpoint(value: unknown): value is MarkedThreadEndpoint {
  return typeof value === "function" && (value as { [THREAD_ENDPOINT_SYMBOL]?: unknown })[THREAD_ENDPOINT_SYMBOL] === true;
}

/** Options of `ControllerContext.threads.create`. */
export interface CreateThreadOptions {
  /** Thread variables (values by name). */
  env?: Record<string, string>;
  tags?: string[];
  /** A first message, queued at once: the agent starts on it. */
  message?: string;
}

/** A thread of the caller, as a controller sees it. */
export interface ThreadMetadata {
  id: string;
  agent_id: string;
  status: "running" | "idle" | "terminated";
  tags: string[];
  created_at: string;
}

/**
 * What a controller receives: the request, its route params, the caller, and the caller's threads (created and looked
 * up as the caller, so a controller cannot reach another user's threads).
 */
export interface ControllerContext {
  request: Request;
  url: URL;
  /** Values of the route's `[param]` segments. */
  params: Record<string, string>;
  /** The authenticated caller (null in local mode, where there are no accounts). */
  user: { id: string; username: string; role: string } | null;
  threads: {
    /** Create a thread of `agentName` owned by the caller (with an optional first message). */
    create(agentName: string, options?: CreateThreadOptions): Promise<ThreadState>;
    /** The caller's thread, or null when it does not exist or belongs to someone else. */
    get(threadId: string): Promise<ThreadState | null>;
    /** The caller's threads, newest first (optionally of one agent). */
    list(options?: { agentName?: string; limit?: number }): Promise<ThreadMetadata[]>;
  };
}

/** A controller (`agents/controllers/**`): an authenticated route under `/api/controllers/` bound to no thread. */
export type Controller = ((context: ControllerContext) => ControllerReturn | Promise<ControllerReturn>) & {
  readonly [CONTROLLER_SYMBOL]: true;
};

/** Defines a controller: the default export of a file under `agents/controllers/`. */
export function defineController(handler: (context: ControllerContext) => ControllerReturn | Promise<ControllerReturn>): Controller {
  return Object.assign(handler, { [CONTROLLER_SYMBOL]: true as const });
}

/** True when `value` was made by `defineController`. */
export function isController(value: unknown): value is Controller {
  return typeof value === "function" && (value as { [CONTROLLER_SYMBOL]?: unknown })[CONTROLLER_SYMBOL] === true;
}
