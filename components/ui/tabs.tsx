"use client";

import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ReactNode } from "react";
import { focusRing } from "./button";

export interface TabItem<T extends string> {
  id: T;
  label: string;
  count?: number;
}

/**
 * Tabs on Radix (arrow keys move between tabs, Home/End jump, the panel is labelled by its tab). The caller owns the
 * selected tab and renders only the selected panel's content.
 */
export function Tabs<T extends string>({
  label,
  tabs,
  value,
  onChange,
  children,
}: {
  label: string;
  tabs: readonly TabItem<T>[];
  value: T;
  onChange: (id: T) => void;
  children: ReactNode;
}) {
  return (
    <TabsPrimitive.Root value={value} onValueChange={(v) => onChange(v as T)} className="flex min-w-0 flex-col gap-3">
      <TabsPrimitive.List
        aria-label={label}
        className="flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800"
      >
        {tabs.map((t) => (
          <TabsPrimitive.Trigger
            key={t.id}
            value={t.id}
            className={`-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm font-medium text-slate-600 hover:text-slate-900 data-[state=active]:border-indigo-600 data-[state=active]:text-indigo-700 dark:text-slate-400 dark:hover:text-white dark:data-[state=active]:text-indigo-300 ${focusRing}`}
          >
            {t.label}
            {t.count !== undefined ? (
              <span className="ml-1 text-xs text-slate-500 dark:text-slate-400">{t.count}</span>
            ) : null}
          </TabsPrimitive.Trigger>
        ))}
      </TabsPrimitive.List>
      {tabs.map((t) =>
        t.id === value ? (
          <TabsPrimitive.Content key={t.id} value={t.id} className={`min-w-0 rounded-sm ${focusRing}`}>
            {children}
          </TabsPrimitive.Content>
        ) : null,
      )}
    </TabsPrimitive.Root>
  );
}
