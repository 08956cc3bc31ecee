"use client";

/**
 * What the editor's CodeMirror 6 views share: the look (light and dark, the app's Tailwind colours) and syntax
 * highlighting. The prompt text editor, the JSON editor and the read-only code views use it.
 */
import { defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { EditorView } from "@codemirror/view";
import type { Extension } from "@codemirror/state";

export const codeTheme = EditorView.theme({
  "&": { fontSize: "12px", border: "1px solid #cbd5e1", borderRadius: "0.25rem", backgroundColor: "#ffffff", color: "#0f172a" },
  "&.cm-focused": { outline: "2px solid #6366f1" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", lineHeight: "1.45", maxHeight: "16rem" },
  ".cm-content": { padding: "4px 0" },
  ".cm-gutters": { backgroundColor: "#f8fafc", borderRight: "1px solid #e2e8f0", color: "#94a3b8" },
});

export const darkCodeTheme = EditorView.theme(
  {
    "&": { backgroundColor: "#020617", color: "#f1f5f9", borderColor: "#475569" },
    ".cm-cursor": { borderLeftColor: "#f1f5f9" },
    ".cm-gutters": { backgroundColor: "#0f172a", borderRight: "1px solid #334155", color: "#64748b" },
  },
  { dark: true },
);

/** Highlighting of the language's tokens (keys, strings, numbers, keywords…). */
export const codeHighlighting: Extension = syntaxHighlighting(defaultHighlightStyle, { fallback: true });
