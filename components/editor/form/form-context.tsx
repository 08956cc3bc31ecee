"use client";

import { createContext, useContext, useEffect, useRef, useState } from "react";
import type { NodeIssue } from "@/shared/graph-projection";
import type { DocValue, EditableKind } from "@/shared/editor/doc";

/**
 * What form fields need: read the value at a path, propose a new value (committed when the schema accepts it at that
 * path; otherwise the schema's message is returned and nothing changes), suggestions for references, the problems
 * reported for a path. Paths are relative to `prefix` (sub-forms of a tools entry use their own root).
 */
export interface FormCtx {
  kind: EditableKind;
  defId: string;
  /** Full path of this form's root inside the definition ('' for the definition itself). */
  prefix: string;
  readOnly: boolean;
  get(path: string): DocValue | undefined;
  /** The value in the file, to keep defaults unwritten when they were unwritten. */
  base(path: string): DocValue | undefined;
  propose(path: string, value: DocValue | undefined): string | null;
  suggest(fullPath: string): string[] | undefined;
  issues(fullPath: string): NodeIssue[];
  /** What a prompt tools entry with this name refers to. */
  entryKind(name: string): "tool" | "subprompt" | "subagent" | "handoff" | undefined;
}

export const FormContext = createContext<FormCtx | null>(null);

export function useFormCtx(): FormCtx {
  const ctx = useContext(FormContext);
  if (!ctx) throw new Error("form fields need a FormContext");
  return ctx;
}

export const join = (a: string, b: string) => (a === "" ? b : b === "" ? a : `${a}.${b}`);

export function fieldId(ctx: FormCtx, path: string): string {
  return `field-${ctx.defId}-${join(ctx.prefix, path)}`.replace(/[^A-Za-z0-9_-]/g, "_");
}

/**
 * Local text of an input with its error: keeps what the user typed while the schema refuses it, and follows the
 * committed value when it changes from elsewhere (undo, a file edited outside).
 */
export function useDraft<T>(value: T, format: (v: T) => string, parse: (text: string) => T) {
  const [text, setText] = useState(() => format(value));
  const [error, setError] = useState<string | null>(null);
  const parseRef = useRef(parse);
  const formatRef = useRef(format);
  const textRef = useRef(text);
  parseRef.current = parse;
  formatRef.current = format;
  textRef.current = text;
  useEffect(() => {
    let parsed: T | undefined;
    try {
      parsed = parseRef.current(textRef.current);
    } catch {
      parsed = undefined;
    }
    if (JSON.stringify(parsed) === JSON.stringify(value)) return;
    setText(formatRef.current(value));
    setError(null);
  }, [value]);
  return { text, setText, error, setError };
}
