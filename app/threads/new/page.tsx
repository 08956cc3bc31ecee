import type { Metadata } from "next";
import { NewThreadForm } from "@/components/threads/new-thread-form";

export const metadata: Metadata = { title: "New thread" };

export default async function NewThreadPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const agent = (await searchParams).agent;
  return <NewThreadForm initialAgent={(Array.isArray(agent) ? agent[0] : agent) ?? null} />;
}
