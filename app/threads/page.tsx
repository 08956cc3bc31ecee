import type { Metadata } from "next";
import { headers } from "next/headers";
import { filtersFromQuery } from "@/components/threads/filter-query";
import { ThreadsScreen } from "@/components/threads/threads-screen";
import { pageAuth } from "@/server/api/auth/page-auth";
import { getApp } from "@/server/worker/app";

export const metadata: Metadata = { title: "Threads" };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function ThreadsPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const auth = await pageAuth(await getApp(), await headers());
  // Administrators with accounts may filter by any user; everyone else sees their own threads anyway.
  const canFilterUsers = auth.caller?.role === "admin" && !auth.setupNeeded;
  return <ThreadsScreen initial={filtersFromQuery((k) => one(sp[k]))} canFilterUsers={canFilterUsers} />;
}
