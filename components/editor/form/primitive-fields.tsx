"use client";

import { useState } from "react";
import type { DocValue } from "@/shared/editor/doc";
import { hintFor } from "./field-hints";
import { FieldFrame, inputClass, smallButton } from "./field-frame";
import { CodeView } from "./code-view";
import { fieldId, join, useDraft, useFormCtx } from "./form-context";
import { JsonCodeEditor } from "./json-code-editor";

interface BaseProps {
  path: string;
  label: string;
  hintKey?: string;
  optional: boolean;
  defaultValue?: unknown;
}

/** Unsets a value equal to its default when the file did not write it, so toggling back leaves the file as it was. */
function useCommit(path: string, defaultValue: unknown) {
  const ctx = useFormCtx();
  return (value: DocValue | undefined) => {
    const unwritten = ctx.base(path) === undefined;
    return ctx.propose(path, value !== undefined && unwritten && value === defaultValue ? undefined : value);
  };
}

export function TextField({ path, label, hintKey, optional, defaultValue, multiline, listId }: BaseProps & { multiline?: boolean; listId?: string }) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const current = typeof value === "string" ? value : "";
  const commit = useCommit(path, defaultValue);
  const { text, setText, error, setError } = useDraft<string | undefined>(
    typeof value === "string" ? value : undefined,
    (v) => v ?? "",
    (t) => (t === "" && optional ? undefined : t),
  );
  const id = fieldId(ctx, path);
  const onChange = (t: string) => {
    setText(t);
    setError(commit(t === "" && optional ? undefined : t));
  };
  const props = {
    id,
    value: text,
    disabled: ctx.readOnly,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
    placeholder: typeof defaultValue === "string" && defaultValue !== "" ? defaultValue : optional ? "(not set)" : "",
    className: `${inputClass} ${multiline ? "" : "font-mono"}`,
  };
  return (
    <FieldFrame path={path} label={label} hintKey={hintKey} error={error}>
      {multiline ? (
        <textarea {...props} rows={Math.min(14, Math.max(2, current.split("\n").reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 48)), 0)))} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...props} type="text" list={listId} autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      )}
    </FieldFrame>
  );
}

export function NumberField({ path, label, hintKey, optional, defaultValue, min, integer }: BaseProps & { min?: number; integer: boolean }) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const commit = useCommit(path, defaultValue);
  const parse = (t: string): number | undefined => (t.trim() === "" ? undefined : Number(t));
  const { text, setText, error, setError } = useDraft<number | undefined>(typeof value === "number" ? value : undefined, (v) => (v === undefined ? "" : String(v)), parse);
  const id = fieldId(ctx, path);
  return (
    <FieldFrame path={path} label={label} hintKey={hintKey} error={error}>
      <input
        id={id}
        type="number"
        inputMode={integer ? "numeric" : "decimal"}
        step={integer ? 1 : "any"}
        min={min}
        value={text}
        disabled={ctx.readOnly}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        placeholder={defaultValue !== undefined ? String(defaultValue) : optional ? "(not set)" : ""}
        className={inputClass}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          const n = parse(t);
          if (n !== undefined && Number.isNaN(n)) return setError("must be a number");
          if (n === undefined && !optional) return setError("required: enter a number");
          setError(commit(n));
        }}
      />
    </FieldFrame>
  );
}

export function BoolField({ path, label, hintKey, defaultValue }: BaseProps) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const checked = typeof value === "boolean" ? value : defaultValue === true;
  const commit = useCommit(path, defaultValue);
  const id = fieldId(ctx, path);
  const full = join(ctx.prefix, path);
  return (
    <div data-field-path={full} className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={ctx.readOnly}
        onChange={(e) => commit(e.target.checked)}
        className="mt-0.5 h-4 w-4 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500"
      />
      <FieldLabelOnly id={id} label={label} hint={hintFor(ctx.kind, full, hintKey)} />
    </div>
  );
}

function FieldLabelOnly({ id, label, hint }: { id: string; label: string; hint: string | undefined }) {
  return (
    <label htmlFor={id} className="flex flex-col text-xs">
      <span className="font-medium text-slate-700 dark:text-slate-200">{label}</span>
      {hint ? <span className="text-[11px] text-slate-500 dark:text-slate-400">{hint}</span> : null}
    </label>
  );
}

export function SelectField({ path, label, hintKey, optional, defaultValue, options }: BaseProps & { options: string[] }) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const commit = useCommit(path, defaultValue);
  const id = fieldId(ctx, path);
  const current = typeof value === "string" ? value : "";
  const [error, setError] = useState<string | null>(null);
  return (
    <FieldFrame path={path} label={label} hintKey={hintKey} error={error}>
      <select id={id} value={current} disabled={ctx.readOnly} className={inputClass} onChange={(e) => setError(commit(e.target.value === "" ? undefined : e.target.value))}>
        {optional ? <option value="">{defaultValue !== undefined ? `(default: ${String(defaultValue)})` : "(not set)"}</option> : null}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** A value that is code in the file (a zod schema, a function, an expression): shown, never rewritten. */
export function CodeField({ path, label, hintKey, code, language }: { path: string; label: string; hintKey?: string; code: string; language?: "typescript" | "json" }) {
  return (
    <FieldFrame path={path} label={`${label} (code, read-only)`} hintKey={hintKey}>
      <CodeView code={code} label={`${label} (read-only)`} {...(language ? { language } : {})} />
    </FieldFrame>
  );
}

/** Free-form JSON (provider options, tool options): committed when it parses and the schema accepts it. */
export function JsonField({ path, label, hintKey, optional }: BaseProps) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const { text, setText, error, setError } = useDraft<DocValue | undefined>(
    value,
    (v) => (v === undefined ? "" : JSON.stringify(v, null, 2)),
    (t) => (t.trim() === "" ? undefined : (JSON.parse(t) as DocValue)),
  );
  const id = fieldId(ctx, path);
  return (
    <FieldFrame path={path} label={label} hintKey={hintKey} error={error}>
      <JsonCodeEditor
        id={id}
        value={text}
        readOnly={ctx.readOnly}
        label={label}
        hint={optional ? "(not set) — JSON" : "JSON"}
        onChange={(t) => {
          setText(t);
          if (t.trim() === "") return setError(ctx.propose(path, undefined));
          let parsed: DocValue;
          try {
            parsed = JSON.parse(t) as DocValue;
          } catch {
            return setError("not valid JSON yet");
          }
          setError(ctx.propose(path, parsed));
        }}
      />
    </FieldFrame>
  );
}

export function RemoveButton({ label, onClick, disabled }: { label: string; onClick(): void; disabled?: boolean }) {
  return (
    <button type="button" aria-label={label} title={label} onClick={onClick} disabled={disabled} className={smallButton}>
      ✕
    </button>
  );
}
