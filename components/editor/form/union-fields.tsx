"use client";

import { useState } from "react";
import { immediateConfigSchema, resumableConfigSchema, sessionToolConfigSchema } from "@/server/spec";
import { isDocObject, type DocObject } from "@/shared/editor/doc";
import { ObjectFields } from "./collection-fields";
import { FieldFrame, inputClass } from "./field-frame";
import { fieldId, join, useDraft, useFormCtx } from "./form-context";

interface Props {
  path: string;
  label: string;
  hintKey?: string;
}

/**
 * A session lifecycle binding: a tool name, or `{ name, messageProperty?, attachmentsProperty? }` when the tool's
 * arguments are mapped to the lifecycle payload.
 */
export function BindingField({ path, label, hintKey }: Props) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const full = join(ctx.prefix, path);
  const obj: DocObject | undefined = isDocObject(value) ? value : undefined;
  const name = typeof value === "string" ? value : typeof obj?.name === "string" ? obj.name : "";
  const { text, setText, error, setError } = useDraft<string>(name, (v) => v, (t) => t);
  const id = fieldId(ctx, path);
  const tools = ctx.suggest(full);
  const listId = `${id}-tools`;
  const setName = (t: string) => {
    setText(t);
    if (t.trim() === "") return setError(ctx.propose(path, undefined));
    setError(ctx.propose(path, obj ? { ...obj, name: t } : t));
  };
  return (
    <FieldFrame path={path} label={label} hintKey={hintKey} error={error}>
      <div className="flex flex-col gap-1">
        <input id={id} list={listId} value={text} disabled={ctx.readOnly} placeholder="(none) — tool name" autoComplete="off" className={`${inputClass} font-mono`} aria-invalid={error ? true : undefined} onChange={(e) => setName(e.target.value)} />
        {tools ? (
          <datalist id={listId}>
            {tools.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        ) : null}
        {name ? (
          <label className="flex items-center gap-2 text-xs">
            <input
              type="checkbox"
              checked={obj !== undefined}
              disabled={ctx.readOnly}
              className="h-4 w-4 accent-indigo-600"
              onChange={(e) => setError(ctx.propose(path, e.target.checked ? { name } : name))}
            />
            Map the tool&apos;s arguments (message, attachments)
          </label>
        ) : null}
        {obj ? (
          <div className="rounded border border-slate-200 p-2 dark:border-slate-700">
            <ObjectFields schema={sessionToolConfigSchema} path={path} skip={["name"]} />
          </div>
        ) : null}
      </div>
    </FieldFrame>
  );
}

/** `immediate`: off, on, or on with per-instance scoped env relationships. */
export function ImmediateField({ path, label, hintKey }: Props) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const [error, setError] = useState<string | null>(null);
  const mode = value === true ? "on" : isDocObject(value) ? "env" : "off";
  const id = fieldId(ctx, path);
  return (
    <FieldFrame path={path} label={label} hintKey={hintKey} error={error}>
      <div className="flex flex-col gap-1">
        <select
          id={id}
          value={mode}
          disabled={ctx.readOnly}
          className={inputClass}
          onChange={(e) => setError(ctx.propose(path, e.target.value === "on" ? true : e.target.value === "env" ? {} : undefined))}
        >
          <option value="off">No (spawned when the model calls it)</option>
          <option value="on">Yes, at activation</option>
          <option value="env">Yes, with per-instance env</option>
        </select>
        {mode === "env" ? (
          <div className="rounded border border-slate-200 p-2 dark:border-slate-700">
            <ObjectFields schema={immediateConfigSchema} path={path} />
          </div>
        ) : null}
      </div>
    </FieldFrame>
  );
}

/** `resumable`: off (one-shot child), or the resumable configuration. */
export function ResumableField({ path, label, hintKey }: Props) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const [error, setError] = useState<string | null>(null);
  const on = isDocObject(value);
  const id = fieldId(ctx, path);
  return (
    <FieldFrame path={path} label={label} hintKey={hintKey} error={error}>
      <div className="flex flex-col gap-1">
        <label className="flex items-center gap-2 text-xs">
          <input
            id={id}
            type="checkbox"
            checked={on}
            disabled={ctx.readOnly}
            className="h-4 w-4 accent-indigo-600"
            onChange={(e) => setError(ctx.propose(path, e.target.checked ? { receives_messages: "side_a" } : undefined))}
          />
          Resumable (stays addressable after it reports)
        </label>
        {on ? (
          <div className="rounded border border-slate-200 p-2 dark:border-slate-700">
            <ObjectFields schema={resumableConfigSchema} path={path} />
          </div>
        ) : null}
      </div>
    </FieldFrame>
  );
}
