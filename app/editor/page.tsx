import type { Metadata } from "next";
import { GraphEditor } from "@/components/editor/graph-editor";

export const metadata: Metadata = { title: "Editor" };

export default async function EditorPage({ searchParams }: { searchParams: Promise<{ root?: string | string[] }> }) {
  const { root } = await searchParams;
  const agent = Array.isArray(root) ? root[0] : root;
  return <GraphEditor key={agent ?? ""} {...(agent ? { root: agent } : {})} />;
}
