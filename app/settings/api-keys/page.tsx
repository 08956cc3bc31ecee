import { headers } from "next/headers";
import { ApiKeysScreen } from "@/components/admin/api-keys-screen";
import { LocalModeNotice } from "@/components/admin/local-mode-notice";
import { pageAuth } from "@/server/api/auth/page-auth";
import { getApp } from "@/server/worker/app";

export const metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const auth = await pageAuth(await getApp(), await headers());
  if (auth.setupNeeded) return <LocalModeNotice what="API keys" />;
  return <ApiKeysScreen />;
}
