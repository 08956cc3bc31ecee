"use client";

import { useMemo, useState } from "react";
import { promptToolConfigSchema, subagentToolConfigSchema, subpromptConfigSchema } from "@/server/spec";
import { getAt, isDocObject, setAt, type DocObject, type DocValue } from "@/shared/editor/doc";
import { ObjectFields } from "./collection-fields";
import { FieldFrame, inputClass, smallButton } from "./field-frame";
import { FormContext, join, useFormCtx, type FormCtx } from "./form-context";
import { RemoveButton } from "./primitive-fields";

export type EntryKind = "tool" | "subprompt" | "subagent" | "handoff";

const SCHEMAS = { tool: promptToolConfigSchema, subprompt: subpromptConfigSchema, subagent: subagentToolConfigSchema } as const;
const KIND_TEXT: Record<EntryKind, string> = { tool: "tool", subprompt: "subprompt", subagent: "subagent", handoff: "handoff" };

const entryName = (entry: DocValue | undefined) => (typeof entry === "string" ? entry : isDocObject(entry) && typeof entry.name === "string" ? entry.name : "");

/**
 * The options of one tools entry, by what its name refers to: a subagent's mode (blocking, resumable, immediate,
 * optional gate, argument mappings), a subprompt's result options, a tool's env and options. A string entry becomes
 * an object when an option is set, and a string again when only the name is left.
 */
export function ToolEntryEditor({ index, kind }: { index: number; kind: EntryKind | undefined }) {
  const parent = useFormCtx();
  const path = `tools.${index}`;
  const entry = parent.get(path);
  const wasString = typeof parent.base(path) === "string" || (typeof entry === "string" && parent.base(path) === undefined);
  const sub = useMemo<FormCtx>(() => {
    const obj: DocObject = isDocObject(entry) ? entry : { name: entryName(entry) };
    return {
      ...parent,
      prefix: join(parent.prefix, path),
      get: (p) => getAt(obj, p) as DocValue | undefined,
      base: (p) => parent.base(join(path, p)),
      propose: (p, v) => {
        const next = setAt(obj, p, v);
        const onlyName = Object.keys(next).filter((k) => next[k] !== undefined).length === 1;
        return parent.propose(path, onlyName && wasString ? (next.name as string) : next);
      },
    };
  }, [parent, entry, path, wasString]);
  if (!kind || kind === "handoff") {
    return <p className="text-xs text-slate-500">{kind === "handoff" ? "A handoff takes no options: the conversation moves to this agent in the same thread." : "Unknown name: no options."}</p>;
  }
  return (
    <FormContext.Provider value={sub}>
      <ObjectFields schema={SCHEMAS[kind]} path="" skip={["name", "tenvs"]} />
    </FormContext.Provider>
  );
}

/** A prompt's tools: callables, subprompts, handoffs and subagents, in order, each with its options. */
export function ToolsField({ path }: { path: string }) {
  const ctx = useFormCtx();
  const full = join(ctx.prefix, path);
  const raw = ctx.get(path);
  const entries: DocValue[] = Array.isArray(raw) ? raw : [];
  const [open, setOpen] = useState<number | null>(null);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const suggestions = ctx.suggest(`${full}.#`) ?? [];
  const set = (next: DocValue[]) => setError(ctx.propose(path, next));
  const listId = `tools-${ctx.defId}`.replace(/[^A-Za-z0-9_-]/g, "_");
  return (
    <FieldFrame path={path} label={`Tools (${entries.length})`} hintKey="tools" error={error}>
      <ul className="flex flex-col gap-1">
        {entries.map((entry, i) => {
          const name = entryName(entry);
          const kind = ctx.entryKind(name);
          return (
            <li key={i} data-testid="tool-entry" data-name={name} data-field-path={join(full, String(i))} className="rounded border border-slate-200 dark:border-slate-700">
              <div className="flex items-center gap-1 px-2 py-1">
                <span className="min-w-0 flex-1 truncate font-mono text-xs">{name}</span>
                <span className={`rounded px-1 text-[10px] ${kind ? "bg-slate-100 dark:bg-slate-800" : "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200"}`}>{kind ? KIND_TEXT[kind] : "unknown"}</span>
                <button type="button" aria-expanded={open === i} className={smallButton} onClick={() => setOpen(open === i ? null : i)}>
                  Options
                </button>
                <RemoveButton label={`Remove ${name} from tools`} disabled={ctx.readOnly} onClick={() => set(entries.filter((_, j) => j !== i))} />
              </div>
              {open === i ? (
                <div className="border-t border-slate-200 p-2 dark:border-slate-700">
                  <ToolEntryEditor index={i} kind={kind} />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      <form
        className="mt-1 flex gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          const name = draft.trim();
          if (!name) return;
          if (entries.some((x) => entryName(x) === name)) return setError(`"${name}" is already in the tools list`);
          const err = ctx.propose(path, [...entries, name]);
          setError(err);
          if (!err) setDraft("");
        }}
      >
        <input aria-label="Add a tool, prompt or agent" list={listId} value={draft} disabled={ctx.readOnly} onChange={(e) => setDraft(e.target.value)} placeholder="tool, prompt or agent name" className={`${inputClass} font-mono`} />
        <datalist id={listId}>
          {suggestions.filter((s) => !entries.some((x) => entryName(x) === s)).map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <button type="submit" disabled={ctx.readOnly} className={smallButton}>
          Add
        </button>
      </form>
    </FieldFrame>
  );
}
