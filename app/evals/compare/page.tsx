import { CompareScreen } from "@/components/evals/compare-screen";

export const metadata = { title: "Compare experiments" };

export default async function ComparePage({ searchParams }: { searchParams: Promise<{ a?: string; b?: string }> }) {
  const { a, b } = await searchParams;
  return <CompareScreen a={a ?? ""} b={b ?? ""} />;
}
