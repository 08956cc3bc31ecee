import { initTRPC, TRPCError } from "@trpc/server";
import type { App } from "@/server/worker/app";
import type { Caller } from "./auth/guard";
import { errorStatus } from "./errors";

export interface TrpcContext {
  app: App;
  /** The authenticated caller, or the reason the request was refused. */
  caller: Caller | null;
  authError?: string;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const mapped = errorStatus(error.cause ?? error);
    return { ...shape, data: { ...shape.data, appCode: mapped.code, details: mapped.details } };
  },
});

export const router = t.router;
/** Every procedure goes through the auth guard: an unauthenticated call is UNAUTHORIZED. */
export const publicProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.caller) throw new TRPCError({ code: "UNAUTHORIZED", message: ctx.authError ?? "Sign in first" });
  return next({ ctx: { ...ctx, caller: ctx.caller } });
});
export const createCallerFactory = t.createCallerFactory;
export { TRPCError };
