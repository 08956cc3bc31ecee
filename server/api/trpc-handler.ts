import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { App } from "./app-context";
import { authenticate } from "./auth/guard";
import { errorResponse } from "./errors";
import { assertJsonWithinLimits } from "./json-limits";
import { appRouter } from "./root";

/**
 * The tRPC endpoint (`/api/trpc`) as a fetch handler: the Next.js route serves it, and tests serve it over plain HTTP.
 * The caller is resolved by the same guard as the REST routes; a refusal is kept in the context so each procedure
 * answers it with the guard's own code. Input too large or too deeply nested is refused (413) before tRPC parses it.
 */
export function createTrpcHandler(getApp: () => Promise<App>) {
  return async (req: Request) => {
    try {
      assertJsonWithinLimits(new URL(req.url).searchParams.get("input") ?? "");
      if (req.method === "POST") assertJsonWithinLimits(await req.clone().text());
    } catch (err) {
      return errorResponse(err);
    }
    return fetchRequestHandler({
      endpoint: "/api/trpc",
      req,
      router: appRouter,
      createContext: async () => {
        const app = await getApp();
        try {
          return { app, caller: await authenticate(req, app) };
        } catch (err) {
          const status = typeof (err as { status?: unknown }).status === "number" ? (err as { status: number }).status : 401;
          return { app, caller: null, authError: err instanceof Error ? err.message : "Sign in first", authStatus: status };
        }
      },
    });
  };
}
