import { initTRPC, TRPCError } from "@trpc/server";
import type { Caller } from "@/shared/caller";
import type { App } from "./app-context";
import { assertScope, canSeeThread, isAdmin } from "./auth/access";
import { ApiError, errorStatus } from "./errors";

export interface TrpcContext {
  app: App;
  /** The authenticated caller, or the reason the request was refused. */
  caller: Caller | null;
  authError?: string;
  /** The guard's refusal (e.g. 403 CSRF), to answer with its own code. */
  authStatus?: number;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const mapped = errorStatus(error.cause ?? error);
    return { ...shape, data: { ...shape.data, appCode: mapped.code, details: mapped.details } };
  },
});

export const router = t.router;

const TRPC_CODES = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  429: "TOO_MANY_REQUESTS",
  501: "NOT_IMPLEMENTED",
} as const;

/**
 * A runtime or database error that carries a known code (a thread that does not exist, a conflict, ...) answers with
 * that code, as REST does (errors.ts), instead of tRPC's default 500.
 */
const mappedErrors = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (result.ok || result.error.code !== "INTERNAL_SERVER_ERROR" || !result.error.cause) return result;
  const mapped = errorStatus(result.error.cause);
  const code = TRPC_CODES[mapped.status as keyof typeof TRPC_CODES];
  if (!code) return result;
  throw new TRPCError({ code, message: mapped.message, cause: result.error.cause });
});

/**
 * Every procedure goes through the auth guard: an unauthenticated call is UNAUTHORIZED. An API key needs
 * `threads:read` for queries and subscriptions, `threads:write` for mutations. A procedure whose input names a
 * `threadId` answers NOT_FOUND for a thread the caller may not see (another user's), as if it did not exist.
 */
const authedProcedure = mappedErrors.use(async ({ ctx, next, getRawInput }) => {
  if (!ctx.caller) {
    const message = ctx.authError ?? "Sign in first";
    throw new TRPCError({ code: ctx.authStatus === 403 ? "FORBIDDEN" : "UNAUTHORIZED", message, cause: new ApiError(ctx.authStatus ?? 401, ctx.authStatus === 403 ? "CSRF" : "UNAUTHORIZED", message) });
  }
  const raw = (await getRawInput().catch(() => undefined)) as { threadId?: unknown } | undefined;
  if (raw && typeof raw === "object" && typeof raw.threadId === "string" && !(await canSeeThread(ctx.app, ctx.caller, raw.threadId))) {
    throw new TRPCError({ code: "NOT_FOUND", message: `Thread ${raw.threadId} not found`, cause: new ApiError(404, "NOT_FOUND", `Thread ${raw.threadId} not found`) });
  }
  return next({ ctx: { ...ctx, caller: ctx.caller } });
});

export const publicProcedure = authedProcedure.use(({ ctx, next, type }) => {
  try {
    assertScope(ctx.caller, type === "mutation" ? "threads:write" : "threads:read");
  } catch (err) {
    toTrpcError(err);
  }
  return next();
});

/** Administrators only (definitions editing, instance variables, users): FORBIDDEN for others, and for keys without `admin`. */
export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!isAdmin(ctx.caller)) throw new TRPCError({ code: "FORBIDDEN", message: "This is for administrators only", cause: new ApiError(403, "FORBIDDEN", "This is for administrators only") });
  try {
    assertScope(ctx.caller, "admin");
  } catch (err) {
    toTrpcError(err);
  }
  return next();
});

/** Map an API error thrown by a shared server function to the matching tRPC code. */
export function toTrpcError(err: unknown): never {
  if (err instanceof ApiError) {
    const code = ({ 400: "BAD_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND", 409: "CONFLICT", 429: "TOO_MANY_REQUESTS" } as const)[err.status] ?? "INTERNAL_SERVER_ERROR";
    throw new TRPCError({ code, message: err.message, cause: err });
  }
  throw err;
}

export const createCallerFactory = t.createCallerFactory;
export { TRPCError };
