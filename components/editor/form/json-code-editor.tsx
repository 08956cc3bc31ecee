"use client";

import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { bracketMatching } from "@codemirror/language";
import { lintGutter, linter } from "@codemirror/lint";
import { search, searchKeymap } from "@codemirror/search";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, keymap, placeholder } from "@codemirror/view";
import { useEffect, useRef } from "react";
import { externalChange, readOnlyMode, useEditorSync } from "./use-editor-sync";
import { useDarkClass } from "../canvas/use-dark";
import { codeHighlighting, codeTheme, darkCodeTheme } from "./codemirror-setup";
import { jsonDiagnostics } from "./json-lint";


/**
 * A CodeMirror 6 editor for a JSON value (provider options, tool options): JSON highlighting, bracket matching, and
 * the parse error marked inline where it is (with a gutter mark); `onChange` gets every text. The field above it
 * decides what to commit.
 */
export function JsonCodeEditor({ id, value, readOnly, onChange, label, hint }: { id: string; value: string; readOnly: boolean; onChange(text: string): void; label: string; hint: string }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const editable = useRef(new Compartment());
  const colors = useRef(new Compartment());
  const dark = useDarkClass();
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          json(),
          codeHighlighting,
          bracketMatching(),
          linter(jsonDiagnostics, { delay: 200 }),
          lintGutter(),
          search({ top: true }),
          EditorView.lineWrapping,
          placeholder(hint),
          keymap.of([...searchKeymap, ...historyKeymap, ...defaultKeymap]),
          codeTheme,
          colors.current.of([]),
          editable.current.of(readOnlyMode(readOnly)),
          EditorView.contentAttributes.of({ id, "aria-label": label, "data-testid": "json-code-editor" }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged || u.transactions.some((t) => t.annotation(externalChange))) return;
            onChangeRef.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // Created once; later values and modes arrive through the effects below.
  }, []);

  useEditorSync(view, { editable, colors }, { value, readOnly, dark, darkTheme: darkCodeTheme });

  return <div ref={host} data-testid="json-editor" className="min-w-0" />;
}
