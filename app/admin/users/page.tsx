import { headers } from "next/headers";
import { Forbidden } from "@/components/admin/forbidden";
import { LocalModeNotice } from "@/components/admin/local-mode-notice";
import { UsersScreen } from "@/components/admin/users-screen";
import { pageAuth } from "@/server/api/auth/page-auth";
import { getApp } from "@/server/worker/app";

export const metadata = { title: "Users" };

export default async function UsersPage() {
  const auth = await pageAuth(await getApp(), await headers());
  if (auth.setupNeeded) return <LocalModeNotice what="Users" />;
  if (auth.caller?.role !== "admin") return <Forbidden what="Users" />;
  return <UsersScreen currentUserId={auth.caller.userId} />;
}
