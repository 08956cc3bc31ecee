"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { createSequenceMatcher, isTypingTarget, SCREEN_SHORTCUTS, SHORTCUTS, type Shortcut } from "./key-sequences";

const kbd = "rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100";

function Keys({ keys }: { keys: string[] }) {
  return (
    <span className="flex items-center gap-1">
      {keys.map((k, i) => (
        <span key={i} className="flex items-center gap-1">
          {i > 0 ? <span className="text-xs text-slate-600 dark:text-slate-300">then</span> : null}
          <kbd className={kbd}>{k}</kbd>
        </span>
      ))}
    </span>
  );
}

function ShortcutTable({ caption, rows }: { caption: string; rows: readonly { keys: string[]; description: string }[] }) {
  return (
    <table className="w-full text-sm">
      <caption className="pb-1 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300">{caption}</caption>
      <tbody>
        {rows.map((s) => (
          <tr key={s.keys.join(" ")} className="border-t border-slate-100 dark:border-slate-800">
            <td className="w-40 py-1.5 pr-3">
              <Keys keys={s.keys} />
            </td>
            <td className="py-1.5">{s.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * App-wide keyboard shortcuts (`g t`, `g e`, `g h`, `n`, `/`, `?`) and their help dialog. Keys typed into a field or
 * with Ctrl/Alt/Meta never count, and nothing fires while a dialog is open (it owns the keyboard).
 */
export function KeyboardShortcuts() {
  const router = useRouter();
  const [help, setHelp] = useState(false);
  const matcher = useRef(createSequenceMatcher(SHORTCUTS));

  useEffect(() => {
    const run = (s: Shortcut) => {
      const a = s.action;
      if (a.kind === "help") setHelp(true);
      else if (a.kind === "go") router.push(a.href);
      else {
        for (const selector of a.selectors) {
          const el = document.querySelector<HTMLElement>(selector);
          if (el && el.offsetParent !== null) {
            el.focus();
            return;
          }
        }
      }
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      if (isTypingTarget(e.target)) return;
      if (document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')) return;
      const hit = matcher.current.press(e.key, e.timeStamp || Date.now());
      if (!hit) return;
      e.preventDefault();
      run(hit);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router]);

  return (
    <Dialog open={help} onOpenChange={setHelp}>
      <DialogContent title="Keyboard shortcuts" className="w-[min(36rem,calc(100vw-2rem))]" data-testid="shortcuts-help">
        <div className="flex flex-col gap-4">
          <ShortcutTable caption="Anywhere" rows={SHORTCUTS} />
          <ShortcutTable caption="On some screens" rows={SCREEN_SHORTCUTS} />
          <p className="text-xs text-slate-600 dark:text-slate-300">Shortcuts do nothing while you type in a field.</p>
        </div>
      </DialogContent>
    </Dialog>
  );
}
