"use client";

import type { ReactNode } from "react";
import { useReportInput } from "../state/input-reports";
import { hintFor } from "./field-hints";
import { fieldId, join, useFormCtx } from "./form-context";

export const inputClass =
  "w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-500 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100 dark:disabled:bg-slate-900";

export const smallButton =
  "rounded border border-slate-300 px-1.5 py-0.5 text-xs hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800";

/** Label, help text, the field itself, the refusal message and the problems reported for this field. */
export function FieldFrame({
  path,
  label,
  hintKey,
  error,
  children,
  inline,
  trailing,
}: {
  path: string;
  label: string;
  hintKey?: string;
  error?: string | null;
  children: ReactNode;
  inline?: boolean;
  trailing?: ReactNode;
}) {
  const ctx = useFormCtx();
  const full = join(ctx.prefix, path);
  const id = fieldId(ctx, path);
  const hint = hintFor(ctx.kind, full, hintKey);
  useReportInput(`${ctx.defId}:${full}`, ctx.readOnly ? null : error);
  const reported = ctx.issues(full).filter((i) => i.field === full);
  return (
    <div data-field-path={full} className="flex flex-col gap-0.5 rounded">
      <div className={inline ? "flex items-center gap-2" : "flex flex-col gap-0.5"}>
        <label htmlFor={id} className="text-xs font-medium text-slate-700 dark:text-slate-200">
          {label}
        </label>
        <div className={inline ? "flex items-center gap-2" : "flex items-start gap-1"}>
          <div className="min-w-0 flex-1">{children}</div>
          {trailing}
        </div>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="text-[11px] text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p role="alert" data-testid="field-error" id={`${id}-error`} className="text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      {reported.map((issue, i) => (
        <p key={i} data-testid="field-issue" className={`text-xs ${issue.severity === "error" ? "text-red-700 dark:text-red-300" : "text-amber-800 dark:text-amber-300"}`}>
          {issue.severity === "error" ? "✖" : "⚠"} {issue.message}
        </p>
      ))}
    </div>
  );
}
