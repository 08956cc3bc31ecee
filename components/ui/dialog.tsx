"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { buttonClass } from "./button";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;
export const DialogTitle = DialogPrimitive.Title;
export const DialogDescription = DialogPrimitive.Description;

/**
 * A modal panel (Radix Dialog: focus trapped and restored, Escape and the overlay close it, the page behind is inert
 * to screen readers). `title` is its accessible name; `actions` sit next to the Close button.
 */
export function DialogContent({
  title,
  description,
  actions,
  children,
  className = "w-[min(60rem,calc(100vw-2rem))]",
  ...rest
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
} & Omit<DialogPrimitive.DialogContentProps, "title" | "children">) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-950/50" />
      <DialogPrimitive.Content
        {...rest}
        {...(description ? {} : { "aria-describedby": undefined })}
        className={`fixed left-1/2 top-1/2 z-50 flex max-h-[88vh] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg border border-slate-200 bg-white text-slate-900 shadow-xl focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 ${className}`}
      >
        <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-700">
          <DialogPrimitive.Title className="min-w-0 text-base font-semibold">{title}</DialogPrimitive.Title>
          <div className="ml-auto flex flex-wrap items-center gap-2">
            {actions}
            <DialogPrimitive.Close className={buttonClass("secondary", "sm")}>Close</DialogPrimitive.Close>
          </div>
          {description ? (
            <DialogPrimitive.Description className="w-full text-sm text-slate-600 dark:text-slate-300">
              {description}
            </DialogPrimitive.Description>
          ) : null}
        </div>
        <div className="min-h-0 overflow-y-auto p-4">{children}</div>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
