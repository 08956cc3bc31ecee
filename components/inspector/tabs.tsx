"use client";

import { useId, type ReactNode } from "react";

/** Accessible tabs (role=tablist/tab/tabpanel); the caller owns the selected tab. */
export function Tabs<T extends string>({
  label,
  tabs,
  value,
  onChange,
  children,
}: {
  label: string;
  tabs: readonly { id: T; label: string; count?: number }[];
  value: T;
  onChange: (id: T) => void;
  children: ReactNode;
}) {
  const base = useId();
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div role="tablist" aria-label={label} className="flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${base}-${t.id}`}
            aria-selected={value === t.id}
            aria-controls={`${base}-panel`}
            onClick={() => onChange(t.id)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${
              value === t.id
                ? "border-indigo-600 text-indigo-700 dark:text-indigo-300"
                : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
            }`}
          >
            {t.label}
            {t.count !== undefined ? <span className="ml-1 text-xs text-slate-500">{t.count}</span> : null}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-${value}`} className="min-w-0">
        {children}
      </div>
    </div>
  );
}
