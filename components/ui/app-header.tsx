import Link from "next/link";
import type { Caller } from "@/shared/caller";
import { SignOutButton } from "../auth/sign-out-button";
import { ThemeToggle } from "./theme-toggle";

const link = "hover:text-slate-900 dark:hover:text-white";

export function AppHeader({ caller, setupNeeded }: { caller: Caller | null; setupNeeded: boolean }) {
  const admin = caller?.role === "admin";
  return (
    <header className="border-b border-slate-200 bg-white/80 backdrop-blur dark:border-slate-800 dark:bg-slate-900/80">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link
          href="/"
          data-testid="brand"
          className="flex items-center gap-2 font-semibold tracking-tight text-slate-900 dark:text-white"
        >
          <span aria-hidden className="inline-block h-6 w-6 rounded-md bg-indigo-600" />
          Standard Agents Studio
        </Link>
        {caller ? (
          <nav aria-label="Main" className="flex flex-wrap items-center gap-4 text-sm text-slate-600 dark:text-slate-300">
            <Link href="/" className={link}>
              Agents
            </Link>
            <Link href="/editor" className={link}>
              Editor
            </Link>
            <Link href="/threads" className={link}>
              Threads
            </Link>
            <Link href="/settings/variables" className={link}>
              Variables
            </Link>
            <Link href="/providers" className={link}>
              Providers
            </Link>
            {admin ? (
              <Link href="/admin/users" className={link}>
                Users
              </Link>
            ) : null}
            <Link href="/settings/api-keys" className={link}>
              API keys
            </Link>
          </nav>
        ) : null}
        <div className="ml-auto flex items-center gap-3 text-sm">
          {caller?.userId ? (
            <>
              <span className="text-slate-500" data-testid="signed-in-as">
                {caller.username}
                {admin ? " (admin)" : ""}
              </span>
              <SignOutButton />
            </>
          ) : setupNeeded ? (
            <Link href="/setup" className="rounded-md border border-amber-300 px-2 py-1 text-amber-900 dark:border-amber-700 dark:text-amber-200" title="No account exists yet: requests from this machine run as the administrator">
              Local mode · create the admin account
            </Link>
          ) : null}
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
