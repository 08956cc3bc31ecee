"use client";

import { useState, type FormEvent } from "react";
import { safeNextUrl } from "@/shared/safe-next";

/**
 * Sign-in form: POST /api/auth/login sets the session cookie, then the user goes back where they came from (a page of
 * this origin only). With single sign-on configured, a button starts it (GET /api/auth/oidc/login), which comes back
 * here with `error` when it fails.
 */
export function LoginForm({ next, error: initialError, sso }: { next: string; error: string | null; sso: string | null }) {
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: form.get("username"), password: form.get("password") }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        setError(body?.error?.message ?? `Sign-in failed (${res.status})`);
        return;
      }
      window.location.assign(safeNextUrl(next, window.location.origin));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} className="mx-auto mt-16 flex w-full max-w-sm flex-col gap-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h1 className="text-lg font-semibold">Sign in</h1>
      <label className="flex flex-col gap-1 text-sm">
        Username
        <input name="username" autoComplete="username" required className="rounded-md border border-slate-300 px-3 py-2 dark:border-slate-700 dark:bg-slate-950" />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Password
        <input name="password" type="password" autoComplete="current-password" required className="rounded-md border border-slate-300 px-3 py-2 dark:border-slate-700 dark:bg-slate-950" />
      </label>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy} className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60">
        {busy ? "Signing in…" : "Sign in"}
      </button>
      {sso ? (
        <a
          href={`/api/auth/oidc/login?next=${encodeURIComponent(next)}`}
          className="rounded-md border border-slate-300 px-3 py-2 text-center text-sm font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          Sign in with {sso}
        </a>
      ) : null}
    </form>
  );
}
