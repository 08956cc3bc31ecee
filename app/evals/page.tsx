import { EvalsScreen } from "@/components/evals/evals-screen";

export const metadata = { title: "Evals" };

export default function EvalsPage() {
  return <EvalsScreen />;
}
