import { createTrpcHandler } from "@/server/api/trpc-handler";
import { getApp } from "@/server/worker/app";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handler = createTrpcHandler(getApp);

export { handler as GET, handler as POST };
