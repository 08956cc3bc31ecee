import Link from "next/link";
import { ThemeToggle } from "./theme-toggle";

export function AppHeader() {
  return (
    <header className="border-b border-slate-200 bg-white/80 backdrop-blur dark:border-slate-800 dark:bg-slate-900/80">
      <div className="mx-auto flex max-w-6xl items-center gap-6 px-4 py-3">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <span aria-hidden className="inline-block h-6 w-6 rounded-md bg-indigo-600" />
          Standard Agents Studio
        </Link>
        <nav aria-label="Main" className="flex items-center gap-4 text-sm text-slate-600 dark:text-slate-300">
          <Link href="/" className="hover:text-slate-900 dark:hover:text-white">
            Agents
          </Link>
          <Link href="/editor" className="hover:text-slate-900 dark:hover:text-white">
            Editor
          </Link>
          <Link href="/threads" className="hover:text-slate-900 dark:hover:text-white">
            Threads
          </Link>
        </nav>
        <div className="ml-auto">
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
