import { ProvidersScreen } from "@/components/admin/providers-screen";

export const metadata = { title: "Providers" };

export default function ProvidersPage() {
  return <ProvidersScreen />;
}
