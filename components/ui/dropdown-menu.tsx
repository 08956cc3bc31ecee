"use client";

import * as Menu from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;

/** A menu (Radix: arrow keys move, typing jumps to an item, Escape closes and focus returns to the trigger). */
export function DropdownMenuContent({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <Menu.Portal>
      <Menu.Content
        aria-label={label}
        align="end"
        sideOffset={4}
        className="z-50 min-w-44 rounded-md border border-slate-200 bg-white p-1 text-sm text-slate-800 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        {children}
      </Menu.Content>
    </Menu.Portal>
  );
}

export function DropdownMenuItem({
  children,
  onSelect,
  danger,
  disabled,
  testId,
}: {
  children: ReactNode;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <Menu.Item
      onSelect={onSelect}
      disabled={disabled}
      data-testid={testId}
      className={`flex cursor-pointer select-none items-center gap-2 rounded px-2 py-1.5 outline-none data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800 ${danger ? "text-red-700 dark:text-red-300" : ""}`}
    >
      {children}
    </Menu.Item>
  );
}

export function DropdownMenuSeparator() {
  return <Menu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />;
}
