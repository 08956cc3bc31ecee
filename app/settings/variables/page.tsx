import Link from "next/link";
import { AgentVariablesPanel } from "@/components/admin/agent-variables-panel";
import { VariablesForm } from "@/components/admin/variables-form";
import { pageIsAdmin } from "@/server/api/auth/page-admin";
import { getApp } from "@/server/worker/app";

export const metadata = { title: "Variables" };

export default async function MyVariablesPage() {
  const admin = await pageIsAdmin(await getApp());
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-xl font-semibold">Variables</h1>
        {admin ? (
          <Link href="/admin/variables" className="text-sm text-indigo-700 hover:underline dark:text-indigo-300">
            Instance variables
          </Link>
        ) : null}
      </div>
      <VariablesForm scope="user" />
      <AgentVariablesPanel />
    </div>
  );
}
