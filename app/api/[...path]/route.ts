import { createRestHandler } from "@/server/api/rest/routes";
import { getApp } from "@/server/worker/app";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handle = createRestHandler(getApp);

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
