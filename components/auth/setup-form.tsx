"use client";

import { useState, type FormEvent } from "react";

/**
 * First-run setup: creates the first administrator (POST /api/auth/setup), signs them in, and goes home. From another
 * machine than the server's, it asks for the one-time setup token the server printed in its log.
 */
export function SetupForm({ tokenRequired }: { tokenRequired: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    if (form.get("password") !== form.get("confirm")) return setError("The passwords do not match");
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/auth/setup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: form.get("username"), password: form.get("password"), ...(tokenRequired ? { setup_token: String(form.get("setup_token") ?? "").trim() } : {}) }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        return setError(body?.error?.message ?? `Setup failed (${res.status})`);
      }
      window.location.assign("/");
    } finally {
      setBusy(false);
    }
  }
  const input = "rounded-md border border-slate-300 px-3 py-2 dark:border-slate-700 dark:bg-slate-950";
  return (
    <form onSubmit={submit} className="mx-auto mt-16 flex w-full max-w-sm flex-col gap-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h1 className="text-lg font-semibold">Create the administrator account</h1>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {tokenRequired
          ? "No account exists yet. To create the administrator from this machine, enter the one-time setup token the server printed in its log."
          : "No account exists yet, so the app runs in local mode and admits requests from this machine. Once this account exists, every page and API call needs a sign-in or an API key."}
      </p>
      {tokenRequired ? (
        <label className="flex flex-col gap-1 text-sm">
          Setup token (from the server log)
          <input name="setup_token" autoComplete="off" required className={input} />
        </label>
      ) : null}
      <label className="flex flex-col gap-1 text-sm">
        Username
        <input name="username" autoComplete="username" required className={input} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Password (10 characters or more)
        <input name="password" type="password" autoComplete="new-password" minLength={10} required className={input} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Repeat the password
        <input name="confirm" type="password" autoComplete="new-password" minLength={10} required className={input} />
      </label>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy} className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60">
        {busy ? "Creating…" : "Create account and sign in"}
      </button>
    </form>
  );
}
