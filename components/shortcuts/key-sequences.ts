/** What a shortcut does: go to a page, focus a field, or open the help. */
export type ShortcutAction =
  | { kind: "go"; href: string }
  | { kind: "focus"; selectors: string[] }
  | { kind: "help" };

export interface Shortcut {
  /** The keys pressed one after the other (`event.key` values), e.g. `["g", "t"]`. */
  keys: string[];
  description: string;
  action: ShortcutAction;
}

/** The app-wide shortcuts, as the help dialog lists them. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ["g", "h"], description: "Go to Home", action: { kind: "go", href: "/" } },
  { keys: ["g", "t"], description: "Go to the threads", action: { kind: "go", href: "/threads" } },
  { keys: ["g", "e"], description: "Go to the editor", action: { kind: "go", href: "/editor" } },
  { keys: ["n"], description: "Start a new thread", action: { kind: "go", href: "/threads/new" } },
  {
    keys: ["/"],
    description: "Focus the search box, or the message box in a chat",
    action: { kind: "focus", selectors: ['main [role="search"] input', '[data-testid="composer-input"]'] },
  },
  { keys: ["?"], description: "Show these shortcuts", action: { kind: "help" } },
];

/** Shortcuts that belong to one screen, listed in the help for reference (their screen handles them). */
export const SCREEN_SHORTCUTS: readonly { keys: string[]; description: string }[] = [
  { keys: ["["], description: "Request log: the previous request" },
  { keys: ["]"], description: "Request log: the next request" },
  { keys: ["Enter"], description: "Chat: send the message (Shift+Enter for a new line)" },
  { keys: ["Esc"], description: "Close a dialog" },
];

/** Keys typed into a field, or with a modifier, are never shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== "function") return false;
  if (el.isContentEditable) return true;
  return el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], .cm-editor') !== null;
}

/**
 * Matches key presses against multi-key shortcuts: a press either completes a shortcut, continues a prefix (kept for
 * `timeoutMs`), or resets. Pure (time is passed in), so it is tested without a browser.
 */
export function createSequenceMatcher(shortcuts: readonly Shortcut[], timeoutMs = 1200) {
  let pending: string[] = [];
  let at = 0;
  return {
    press(key: string, now: number): Shortcut | null {
      if (now - at > timeoutMs) pending = [];
      at = now;
      const tried = [...pending, key];
      const done = shortcuts.find((s) => s.keys.length === tried.length && s.keys.every((k, i) => k === tried[i]));
      if (done) {
        pending = [];
        return done;
      }
      const prefix = (keys: string[]) => shortcuts.some((s) => s.keys.length > keys.length && keys.every((k, i) => s.keys[i] === k));
      if (prefix(tried)) pending = tried;
      else if (prefix([key])) pending = [key];
      else {
        pending = [];
        const single = shortcuts.find((s) => s.keys.length === 1 && s.keys[0] === key);
        if (single && tried.length > 1) return single;
      }
      return null;
    },
    /** A prefix is waiting for its next key. */
    get pending(): readonly string[] {
      return pending;
    },
  };
}
