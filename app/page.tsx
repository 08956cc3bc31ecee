import { RegistryOverview } from "@/components/home/registry-overview";

export default function HomePage() {
  return <RegistryOverview />;
}
