import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { pageAuth } from "@/server/api/auth/page-auth";
import { getApp } from "@/server/worker/app";

export const metadata = { title: "Setup" };

export default async function SetupPage() {
  const auth = await pageAuth(await getApp(), await headers());
  if (!auth.setupNeeded) redirect("/login");
  return <SetupForm tokenRequired={auth.setupTokenRequired} />;
}
