import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { authenticate } from "@/server/api/auth/guard";
import { appRouter } from "@/server/api/root";
import { getApp } from "@/server/worker/app";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handler = (req: Request) =>
  fetchRequestHandler({
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

export { handler as GET, handler as POST };
