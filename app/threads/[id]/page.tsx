import type { Metadata } from "next";
import { ConversationScreen } from "@/components/chat/conversation-screen";
import { InspectorScreen } from "@/components/inspector/inspector-screen";

export const metadata: Metadata = { title: "Conversation" };

export default async function ThreadPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ view?: string; node?: string }>;
}) {
  const { id } = await params;
  const { view, node } = await searchParams;
  if (view === "inspector") return <InspectorScreen key={id} threadId={id} initialNode={node} />;
  return <ConversationScreen threadId={id} />;
}
