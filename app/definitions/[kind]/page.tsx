import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DefinitionListPage } from "@/components/definitions/definition-list-page";
import { LIST_KINDS, LIST_TITLE, type ListKind } from "@/shared/editor/definition-list";

const isKind = (k: string): k is ListKind => (LIST_KINDS as readonly string[]).includes(k);

export async function generateMetadata({ params }: { params: Promise<{ kind: string }> }): Promise<Metadata> {
  const { kind } = await params;
  return { title: isKind(kind) ? LIST_TITLE[kind] : "Not found" };
}

export default async function DefinitionsPage({ params }: { params: Promise<{ kind: string }> }) {
  const { kind } = await params;
  if (!isKind(kind)) notFound();
  return <DefinitionListPage kind={kind} />;
}
