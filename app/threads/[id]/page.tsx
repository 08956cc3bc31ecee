import type { Metadata } from "next";
import { headers } from "next/headers";
import { ConversationScreen } from "@/components/chat/conversation-screen";
import { InspectorScreen } from "@/components/inspector/inspector-screen";
import { canSeeThread } from "@/server/api/auth/access";
import { pageAuth } from "@/server/api/auth/page-auth";
import { treeSnapshot } from "@/server/api/inspector/tree";
import type { TreeSnapshot } from "@/components/inspector/live-tree";
import { getApp } from "@/server/worker/app";

export const metadata: Metadata = { title: "Conversation" };

/** Trees up to this size come with the page, so its first paint already shows them; bigger ones arrive live. */
const INLINE_NODES = 1_000;

/**
 * The inspector's tree as the page is rendered, or why there is none (the thread does not exist or the caller may not
 * see it). Both null when the tree is too big to come with the page: the live feed brings it.
 */
async function initialTree(threadId: string): Promise<{ tree: TreeSnapshot | null; error: string | null }> {
  const app = await getApp();
  const auth = await pageAuth(app, await headers());
  if (!auth.caller) return { tree: null, error: null };
  if (!(await canSeeThread(app, auth.caller, threadId))) return { tree: null, error: `Thread ${threadId} not found` };
  try {
    const snap = await treeSnapshot(app, threadId);
    return { tree: snap.facts.length <= INLINE_NODES ? snap : null, error: null };
  } catch (err) {
    return { tree: null, error: err instanceof Error ? err.message : String(err) };
  }
}

export default async function ThreadPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ view?: string; node?: string; tab?: string }>;
}) {
  const { id } = await params;
  const { view, node, tab } = await searchParams;
  if (view === "inspector") {
    const initial = await initialTree(id);
    return <InspectorScreen key={id} threadId={id} initialNode={node} initialView={tab === "files" || tab === "timeline" || tab === "charts" ? tab : undefined} initialTree={initial.tree} initialError={initial.error} />;
  }
  return <ConversationScreen threadId={id} />;
}
