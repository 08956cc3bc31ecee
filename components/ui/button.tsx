import { Slot } from "@radix-ui/react-slot";
import type { ButtonHTMLAttributes } from "react";

/** The one focus ring of the app: keyboard focus only, indigo, offset from the control. */
export const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500";

const VARIANTS = {
  primary: "bg-indigo-600 text-white hover:bg-indigo-700 dark:hover:bg-indigo-500",
  secondary:
    "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  danger:
    "border border-red-300 bg-white text-red-700 hover:bg-red-50 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950",
  ghost: "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800",
  link: "text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300",
} as const;

const SIZES = {
  xs: "px-2 py-0.5 text-xs",
  sm: "px-2.5 py-1 text-sm",
  md: "px-3 py-2 text-sm",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;

/** The classes of a button (for a link or a Radix trigger that should look like one). */
export function buttonClass(variant: ButtonVariant = "secondary", size: ButtonSize = "sm", extra = ""): string {
  return `inline-flex items-center justify-center gap-1.5 rounded-md font-medium whitespace-nowrap disabled:cursor-not-allowed disabled:opacity-50 ${focusRing} ${VARIANTS[variant]} ${SIZES[size]} ${extra}`.trim();
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Render the child element (a link) with the button's look (Radix Slot). */
  asChild?: boolean;
}

export function Button({ variant, size, asChild, className, type, ...rest }: ButtonProps) {
  const Comp = asChild ? Slot : "button";
  return (
    <Comp type={asChild ? undefined : (type ?? "button")} className={buttonClass(variant, size, className)} {...rest} />
  );
}
