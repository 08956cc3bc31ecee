"use client";

import { useEffect, useMemo, useRef } from "react";
import type { z } from "zod";
import { agentDefinitionSchema, modelDefinitionSchema, promptDefinitionSchema } from "@/server/spec";
import type { NodeIssue } from "@/shared/graph-projection";
import { getAt, setAt, type DocObject, type DocValue, type EditableKind } from "@/shared/editor/doc";
import { validateDoc } from "@/shared/editor/doc-validate";
import { ObjectFields } from "./collection-fields";
import { FormContext, type FormCtx } from "./form-context";

const SCHEMAS: Record<EditableKind, z.ZodType> = { agents: agentDefinitionSchema, prompts: promptDefinitionSchema, models: modelDefinitionSchema };

export interface DefinitionFormProps {
  kind: EditableKind;
  defId: string;
  value: DocObject;
  base: DocObject | null;
  readOnly: boolean;
  issues: readonly NodeIssue[];
  /** Commit a new document value; `coalesce` groups keystrokes in one field into one undo step. */
  onChange(value: DocObject, coalesce: string): void;
  suggest(fullPath: string, doc: DocObject): string[] | undefined;
  entryKind: FormCtx["entryKind"];
  /** A field to scroll to and focus. */
  focus: { path: string; nonce: number } | null;
}

const key = (i: { path: string; message: string }) => `${i.path}\u0000${i.message}`;

/**
 * The form of one agent, prompt or model, generated from the spec's zod schema. A change is committed only when the
 * schema accepts the field; otherwise the field shows the schema's message and the document stays as it was.
 */
/** The form context of one definition document (also used by the tools entry editor of an edge). */
export function useDefinitionCtx(props: Omit<DefinitionFormProps, "focus">): FormCtx {
  const { kind, defId, value, base, readOnly, issues, onChange, suggest, entryKind } = props;
  return useMemo<FormCtx>(() => {
    const existing = new Set(validateDoc(kind, value).map(key));
    return {
      kind,
      defId,
      prefix: "",
      readOnly,
      get: (p) => getAt(value, p) as DocValue | undefined,
      base: (p) => (base ? (getAt(base, p) as DocValue | undefined) : undefined),
      propose: (p, v) => {
        const next = setAt(value, p, v);
        const fresh = validateDoc(kind, next).filter((i) => !existing.has(key(i)) && (p === "" || i.path === p || i.path.startsWith(`${p}.`) || p.startsWith(i.path)));
        if (fresh.length > 0) return fresh[0]!.message;
        // Typing in a field (text, numbers) makes one undo step; a toggle, a whole-document change or a removal
        // is a step of its own, so that Undo takes back exactly the last click.
        onChange(next, typeof v === "string" || typeof v === "number" ? `${defId}:${p}` : "");
        return null;
      },
      suggest: (full) => suggest(full, value),
      issues: (full) => issues.filter((i) => i.field === full),
      entryKind,
    };
  }, [kind, defId, value, base, readOnly, issues, onChange, suggest, entryKind]);
}

export function DefinitionForm(props: DefinitionFormProps) {
  const { kind, defId, focus } = props;
  const root = useRef<HTMLDivElement>(null);
  const ctx = useDefinitionCtx(props);

  useEffect(() => {
    if (!focus || !root.current) return;
    let path = focus.path;
    let target: HTMLElement | null = null;
    for (;;) {
      target = root.current.querySelector<HTMLElement>(`[data-field-path="${CSS.escape(path)}"]`);
      if (target || path === "") break;
      path = path.includes(".") ? path.slice(0, path.lastIndexOf(".")) : "";
    }
    if (!target) return;
    target.scrollIntoView({ block: "center" });
    const input = target.querySelector<HTMLElement>("input, select, textarea, button");
    input?.focus({ preventScroll: true });
    target.classList.add("ring-2", "ring-amber-400");
    const t = setTimeout(() => target?.classList.remove("ring-2", "ring-amber-400"), 1600);
    return () => clearTimeout(t);
  }, [focus]);

  return (
    <FormContext.Provider value={ctx}>
      <div ref={root} data-testid="definition-form" data-def={defId}>
        <ObjectFields schema={SCHEMAS[kind]} path="" skip={["name"]} />
      </div>
    </FormContext.Provider>
  );
}
