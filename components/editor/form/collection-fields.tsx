"use client";

import { useState } from "react";
import type { z } from "zod";
import { isDocObject, type DocObject, type DocValue } from "@/shared/editor/doc";
import { keyOrderAt, orderKeys } from "@/shared/editor/key-order";
import { DEPRECATED } from "./field-hints";
import { FieldFrame, inputClass, smallButton } from "./field-frame";
import { fieldId, join, useFormCtx } from "./form-context";
import { minimalValue } from "./minimal-value";
import { JsonField, RemoveButton } from "./primitive-fields";
import { SchemaField } from "./schema-field";
import { elementOf, humanize, recordValueType, shapeOf, unwrap } from "./zod-introspect";

/** The fields of an object schema, in the writer's key order; deprecated fields only when the file uses them. */
export function ObjectFields({ schema, path, skip = [] }: { schema: z.ZodType; path: string; skip?: string[] }) {
  const ctx = useFormCtx();
  const shape = shapeOf(schema);
  const value = ctx.get(path);
  const full = join(ctx.prefix, path);
  const keys = orderKeys(Object.keys(shape), keyOrderAt(ctx.kind, full)).filter(
    (k) => !skip.includes(k) && (!DEPRECATED.has(k) || (isDocObject(value) && value[k] !== undefined)),
  );
  return (
    <div className="flex flex-col gap-3">
      {keys.map((k) => (
        <SchemaField key={k} schema={shape[k]!} path={join(path, k)} keyName={k} />
      ))}
    </div>
  );
}

export function ObjectField({ schema, path, label, optional }: { schema: z.ZodType; path: string; label: string; optional: boolean }) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const full = join(ctx.prefix, path);
  const [error, setError] = useState<string | null>(null);
  const suggest = (key: string) => ctx.suggest(join(full, key))?.[0];
  if (value === undefined) {
    return (
      <div data-field-path={full} className="flex flex-col gap-1">
        <button type="button" disabled={ctx.readOnly} className={`${smallButton} self-start`} onClick={() => setError(ctx.propose(path, minimalValue(schema, suggest)))}>
          + Add {label.toLowerCase()}
        </button>
        {error ? <p role="alert" data-testid="field-error" className="text-xs text-red-700 dark:text-red-300">{error}</p> : null}
      </div>
    );
  }
  return (
    <fieldset data-field-path={full} className="flex flex-col gap-2 rounded-md border border-slate-200 p-2 dark:border-slate-700">
      <legend className="flex items-center gap-2 px-1 text-xs font-semibold text-slate-700 dark:text-slate-200">
        {label}
        {optional ? (
          <button type="button" disabled={ctx.readOnly} className={smallButton} onClick={() => setError(ctx.propose(path, undefined))}>
            Remove
          </button>
        ) : null}
      </legend>
      {error ? <p role="alert" data-testid="field-error" className="text-xs text-red-700 dark:text-red-300">{error}</p> : null}
      <ObjectFields schema={schema} path={path} />
    </fieldset>
  );
}

/** A list: strings get one input each with suggestions; objects get one sub-form each. Add, remove, reorder. */
export function ArrayField({ schema, path, label, keyName }: { schema: z.ZodType; path: string; label: string; keyName: string }) {
  const ctx = useFormCtx();
  const full = join(ctx.prefix, path);
  const element = elementOf(schema);
  const u = unwrap(element);
  const raw = ctx.get(path);
  const items: DocValue[] = Array.isArray(raw) ? raw : [];
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const set = (next: DocValue[]) => setError(ctx.propose(path, next.length === 0 && ctx.base(path) === undefined ? undefined : next));
  const move = (i: number, d: number) => {
    const next = [...items];
    const [x] = next.splice(i, 1);
    next.splice(i + d, 0, x!);
    set(next);
  };
  const suggestions = ctx.suggest(`${full}.#`);
  const listId = `list-${fieldId(ctx, path)}`;
  const controls = (i: number) => (
    <div className="flex shrink-0 gap-1">
      <button type="button" aria-label={`Move item ${i + 1} up`} disabled={ctx.readOnly || i === 0} className={smallButton} onClick={() => move(i, -1)}>
        ↑
      </button>
      <button type="button" aria-label={`Move item ${i + 1} down`} disabled={ctx.readOnly || i === items.length - 1} className={smallButton} onClick={() => move(i, 1)}>
        ↓
      </button>
      <RemoveButton label={`Remove item ${i + 1}`} disabled={ctx.readOnly} onClick={() => set(items.filter((_, j) => j !== i))} />
    </div>
  );
  return (
    <FieldFrame path={path} label={label} hintKey={keyName} error={error}>
      <div className="flex flex-col gap-2">
        {items.map((item, i) =>
          u.type === "object" ? (
            <div key={i} className="flex items-start gap-1 rounded border border-slate-200 p-2 dark:border-slate-700">
              <div className="min-w-0 flex-1">
                <ObjectFields schema={u.schema} path={join(path, String(i))} />
              </div>
              {controls(i)}
            </div>
          ) : (
            <div key={i} className="flex items-center gap-1" data-field-path={join(full, String(i))}>
              <span className="min-w-0 flex-1 truncate rounded bg-slate-100 px-2 py-1 font-mono text-xs dark:bg-slate-800">{typeof item === "string" ? item : JSON.stringify(item)}</span>
              {controls(i)}
            </div>
          ),
        )}
        {u.type === "object" ? (
          <button
            type="button"
            disabled={ctx.readOnly}
            className={`${smallButton} self-start`}
            onClick={() => set([...items, minimalValue(u.schema, (k) => ctx.suggest(join(full, `#.${k}`))?.[0])])}
          >
            + Add {humanize(keyName).replace(/s$/, "").toLowerCase()}
          </button>
        ) : (
          <form
            className="flex gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              if (!draft.trim()) return;
              const err = ctx.propose(path, [...items, draft.trim()]);
              setError(err);
              if (!err) setDraft("");
            }}
          >
            <input
              aria-label={`Add to ${label}`}
              list={suggestions ? listId : undefined}
              value={draft}
              disabled={ctx.readOnly}
              onChange={(e) => setDraft(e.target.value)}
              className={`${inputClass} font-mono`}
              placeholder="name"
            />
            {suggestions ? (
              <datalist id={listId}>
                {suggestions.filter((s) => !items.includes(s)).map((s) => (
                  <option key={s} value={s} />
                ))}
              </datalist>
            ) : null}
            <button type="submit" disabled={ctx.readOnly} className={smallButton}>
              Add
            </button>
          </form>
        )}
      </div>
    </FieldFrame>
  );
}

/** `env` maps: one row per variable (name, value); other records are edited as JSON. */
export function RecordField({ schema, path, label, hintKey, optional }: { schema: z.ZodType; path: string; label: string; hintKey?: string; optional: boolean }) {
  const ctx = useFormCtx();
  const raw = ctx.get(path);
  const [error, setError] = useState<string | null>(null);
  const [newKey, setNewKey] = useState("");
  if (recordValueType(schema) !== "string") return <JsonField path={path} label={label} optional={optional} {...(hintKey ? { hintKey } : {})} />;
  const obj: DocObject = isDocObject(raw) ? raw : {};
  const set = (next: DocObject) => setError(ctx.propose(path, Object.keys(next).length === 0 && ctx.base(path) === undefined ? undefined : next));
  return (
    <FieldFrame path={path} label={label} hintKey={hintKey} error={error}>
      <div className="flex flex-col gap-1">
        {Object.entries(obj).map(([k, v]) => (
          <div key={k} className="flex items-center gap-1">
            <span className="w-2/5 truncate font-mono text-xs" title={k}>
              {k}
            </span>
            <input
              aria-label={`Value of ${k}`}
              value={typeof v === "string" ? v : JSON.stringify(v)}
              disabled={ctx.readOnly}
              onChange={(e) => set({ ...obj, [k]: e.target.value })}
              className={inputClass}
            />
            <RemoveButton label={`Remove ${k}`} disabled={ctx.readOnly} onClick={() => set(Object.fromEntries(Object.entries(obj).filter(([x]) => x !== k)))} />
          </div>
        ))}
        <form
          className="flex gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            if (!newKey.trim() || obj[newKey.trim()] !== undefined) return;
            set({ ...obj, [newKey.trim()]: "" });
            setNewKey("");
          }}
        >
          <input aria-label={`New ${label} name`} value={newKey} disabled={ctx.readOnly} onChange={(e) => setNewKey(e.target.value)} placeholder="VARIABLE_NAME" className={`${inputClass} font-mono`} />
          <button type="submit" disabled={ctx.readOnly} className={smallButton}>
            Add
          </button>
        </form>
      </div>
    </FieldFrame>
  );
}
