import { buttonClass, focusRing } from "./button";

/** The app's shared classes for forms, cards and tables (one look in light and dark, one focus ring). */
export const inputClass = `rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-400 ${focusRing}`;
export const primaryButton = buttonClass("primary", "md");
export const secondaryButton = buttonClass("secondary", "md");
export const dangerButton = buttonClass("danger", "sm");
export const card = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900";
export const tableClass =
  "w-full text-left text-sm [&_td]:py-2 [&_td]:pr-4 [&_th]:pb-2 [&_th]:pr-4 [&_th]:font-medium [&_th]:text-slate-500 dark:[&_th]:text-slate-400";

/** The message of a tRPC or fetch error, for an alert. */
export function errorText(error: unknown): string | null {
  if (!error) return null;
  return error instanceof Error ? error.message : String(error);
}
