"use client";

/** Ends the session (POST /api/auth/logout clears the cookie) and goes to the sign-in page. */
export function SignOutButton() {
  async function signOut() {
    await fetch("/api/auth/logout", { method: "POST" }).catch(() => undefined);
    window.location.assign("/login");
  }
  return (
    <button type="button" onClick={signOut} className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800">
      Sign out
    </button>
  );
}
