/** What a signed-in non-admin sees on an admin page (the API answers 403 as well). */
export function Forbidden({ what }: { what: string }) {
  return (
    <div role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-5 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
      <h1 className="mb-1 text-base font-semibold">Administrators only</h1>
      {what} can only be changed by an administrator.
    </div>
  );
}
