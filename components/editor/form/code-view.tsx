"use client";

import { javascript } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";
import { search, searchKeymap } from "@codemirror/search";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";
import { useEffect, useRef } from "react";
import { useDarkClass } from "../canvas/use-dark";
import { codeHighlighting, codeTheme, darkCodeTheme } from "./codemirror-setup";

/**
 * A read-only CodeMirror 6 view of code the editor shows but never rewrites (a zod schema, a function, an expression
 * of a definition file; JSON of a value the form cannot edit): highlighted as TypeScript (or JSON), selectable,
 * searchable (Ctrl+F).
 */
export function CodeView({ code, language = "typescript", label }: { code: string; language?: "typescript" | "json"; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const colors = useRef(new Compartment());
  const dark = useDarkClass();

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: code,
        extensions: [
          language === "json" ? json() : javascript({ typescript: true }),
          codeHighlighting,
          lineNumbers(),
          search({ top: true }),
          keymap.of(searchKeymap),
          EditorState.readOnly.of(true),
          EditorView.lineWrapping,
          codeTheme,
          colors.current.of([]),
          EditorView.contentAttributes.of({ "aria-label": label, "aria-readonly": "true", "data-testid": "code-view" }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [code, language, label]);

  useEffect(() => {
    view.current?.dispatch({ effects: colors.current.reconfigure(dark ? darkCodeTheme : []) });
  }, [dark, code]);

  return <div ref={host} data-testid="code-field" data-code={code} className="min-w-0" />;
}
