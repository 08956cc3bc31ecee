import { ExperimentScreen } from "@/components/evals/experiment-screen";

export const metadata = { title: "Experiment" };

export default async function ExperimentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ExperimentScreen id={id} />;
}
