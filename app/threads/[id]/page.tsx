import type { Metadata } from "next";
import { ConversationScreen } from "@/components/chat/conversation-screen";

export const metadata: Metadata = { title: "Conversation" };

export default async function ThreadPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ConversationScreen threadId={id} />;
}
