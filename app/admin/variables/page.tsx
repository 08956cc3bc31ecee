import { AgentVariablesPanel } from "@/components/admin/agent-variables-panel";
import { Forbidden } from "@/components/admin/forbidden";
import { VariablesForm } from "@/components/admin/variables-form";
import { pageIsAdmin } from "@/server/api/auth/page-admin";
import { getApp } from "@/server/worker/app";

export const metadata = { title: "Instance variables" };

export default async function InstanceVariablesPage() {
  if (!(await pageIsAdmin(await getApp()))) return <Forbidden what="Instance variables" />;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-xl font-semibold">Instance variables</h1>
      <VariablesForm scope="instance" />
      <AgentVariablesPanel />
    </div>
  );
}
