"use client";

import { jsonParseLinter } from "@codemirror/lang-json";
import { syntaxTree } from "@codemirror/language";
import type { Diagnostic } from "@codemirror/lint";
import type { EditorView } from "@codemirror/view";

/**
 * JSON problems where they are: the error nodes of the JSON syntax tree (an unquoted key, a missing value, a trailing
 * comma…), each marked over at least one character; what the parser tolerates but `JSON.parse` refuses falls back to
 * CodeMirror's own JSON linter. An empty text is "not set" and has no problem.
 */
export function jsonDiagnostics(view: EditorView): Diagnostic[] {
  const { state } = view;
  if (state.doc.toString().trim() === "") return [];
  const out: Diagnostic[] = [];
  syntaxTree(state).iterate({
    enter(node) {
      if (!node.type.isError) return;
      const from = Math.min(node.from, Math.max(0, state.doc.length - 1));
      const to = Math.max(node.to, Math.min(state.doc.length, from + 1));
      out.push({ from, to, severity: "error", message: `Not valid JSON here: "${state.sliceDoc(from, to) || "end of text"}"` });
    },
  });
  return out.length > 0 ? out : jsonParseLinter()(view);
}
