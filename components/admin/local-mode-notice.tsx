import Link from "next/link";

/** Users and API keys belong to accounts: in local mode (no account yet) the page says so and leads to the setup. */
export function LocalModeNotice({ what }: { what: string }) {
  return (
    <section
      aria-labelledby="local-mode-heading"
      data-testid="local-mode-notice"
      className="flex max-w-2xl flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-5 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100"
    >
      <h1 id="local-mode-heading" className="text-base font-semibold">
        {what} need an account
      </h1>
      <p>
        This instance runs in local mode: no account exists yet, and requests from this machine act as the
        administrator. {what} belong to accounts, so there is nothing to manage here until the administrator account
        exists.
      </p>
      <p>
        <Link
          href="/setup"
          className="inline-block rounded-md bg-amber-700 px-3 py-1.5 font-medium text-white hover:bg-amber-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-600"
        >
          Create the administrator account
        </Link>
      </p>
    </section>
  );
}
