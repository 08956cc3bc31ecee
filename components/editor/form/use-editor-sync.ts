import { Annotation, EditorState, type Compartment, type Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { useEffect, type RefObject } from "react";

/** Marks a change that came from the component's `value`, not from typing (its update listener ignores it). */
export const externalChange = Annotation.define<boolean>();

/** The extensions of the read-only mode, for the component's `editable` compartment. */
export const readOnlyMode = (readOnly: boolean): Extension => [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];

/**
 * Keeps a CodeMirror view created once in step with its component's props: a new `value` replaces the document (as an
 * `externalChange`), `readOnly` and `dark` reconfigure their compartments.
 */
export function useEditorSync(
  view: RefObject<EditorView | null>,
  compartments: { editable: RefObject<Compartment>; colors: RefObject<Compartment> },
  props: { value: string; readOnly: boolean; dark: boolean; darkTheme: Extension },
): void {
  const { value, readOnly, dark, darkTheme } = props;
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value }, annotations: externalChange.of(true) });
  }, [view, value]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.editable.current.reconfigure(readOnlyMode(readOnly)) });
  }, [view, compartments.editable, readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.colors.current.reconfigure(dark ? darkTheme : []) });
  }, [view, compartments.colors, dark, darkTheme]);
}
