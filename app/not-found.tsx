import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

/** Any unknown address: in the app's own frame and theme (Next.js's default page sets its own colours). */
export default function NotFound() {
  return (
    <section
      aria-labelledby="not-found-heading"
      data-testid="not-found"
      className="mx-auto flex max-w-xl flex-col items-start gap-3 py-16"
    >
      <p className="font-mono text-sm text-slate-500 dark:text-slate-400">404</p>
      <h1 id="not-found-heading" className="text-2xl font-semibold">
        This page does not exist
      </h1>
      <p className="text-slate-600 dark:text-slate-300">
        The address may be mistyped, or what it pointed to was removed.
      </p>
      <nav aria-label="Where to go" className="flex gap-3 text-sm">
        <Link
          href="/"
          className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          Agents
        </Link>
        <Link
          href="/threads"
          className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Threads
        </Link>
      </nav>
    </section>
  );
}
