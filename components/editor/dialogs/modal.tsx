"use client";

import { useEffect, useRef, type ReactNode } from "react";

export const primaryButton =
  "rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50";
export const secondaryButton =
  "rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600 dark:hover:bg-slate-800";
export const dialogInput =
  "w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 aria-[invalid=true]:border-red-500 dark:border-slate-600 dark:bg-slate-950";

/** A modal dialog on the native <dialog> element: focus stays inside, Escape closes it. */
export function Modal({ title, onClose, children, testId, wide = false }: { title: string; onClose(): void; children: ReactNode; testId?: string; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="editor-dialog-title"
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className={`m-auto ${wide ? "w-[min(60rem,calc(100vw-2rem))]" : "w-[min(34rem,calc(100vw-2rem))]"} rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100`}
    >
      <div className="flex max-h-[80vh] flex-col gap-3 overflow-y-auto p-4">
        <h2 id="editor-dialog-title" className="text-base font-semibold">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}

export function Field({ label, error, children, hint }: { label: string; error?: string | null; children: ReactNode; hint?: string }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{label}</span>
      {children}
      {hint ? <span className="text-xs text-slate-500">{hint}</span> : null}
      {error ? (
        <span role="alert" data-testid="field-error" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </label>
  );
}
