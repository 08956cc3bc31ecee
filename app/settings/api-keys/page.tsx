import { ApiKeysScreen } from "@/components/admin/api-keys-screen";

export const metadata = { title: "API keys" };

export default function ApiKeysPage() {
  return <ApiKeysScreen />;
}
