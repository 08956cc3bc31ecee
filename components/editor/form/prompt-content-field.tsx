"use client";

import { useState } from "react";
import { isDocObject, type DocObject, type DocValue } from "@/shared/editor/doc";
import { FieldFrame, smallButton } from "./field-frame";
import { join, useFormCtx } from "./form-context";
import { RemoveButton, TextField } from "./primitive-fields";
import { PromptTextEditor } from "./prompt-text-editor";

type PartType = "text" | "include" | "env";
const PART_LABEL: Record<PartType, string> = { text: "Text", include: "Include prompt", env: "Variable" };

function Suggestions({ id, values }: { id: string; values: string[] | undefined }) {
  if (!values) return null;
  return (
    <datalist id={id}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}

/**
 * The system prompt: in the text editor (CodeMirror: `{{VARIABLE}}`, `{{> prompt}}`, `@tool`), or as a list of parts
 * composed at render time — text, another prompt included by name, a variable's value — with completion of names.
 */
export function PromptContentField({ path }: { path: string }) {
  const ctx = useFormCtx();
  const full = join(ctx.prefix, path);
  const value = ctx.get(path);
  const [error, setError] = useState<string | null>(null);
  const parts: DocValue[] = Array.isArray(value) ? value : [];
  const isParts = Array.isArray(value);
  const [mode, setMode] = useState<"text" | "parts">(isParts ? "parts" : "text");
  const set = (next: DocValue) => setError(ctx.propose(path, next));
  const newPart = (type: PartType): DocObject =>
    type === "text" ? { type, content: "" } : type === "include" ? { type, prompt: ctx.suggest(`${full}.#.prompt`)?.[0] ?? "prompt_name" } : { type, property: ctx.suggest(`${full}.#.property`)?.[0] ?? "VARIABLE_NAME" };
  const move = (i: number, d: number) => {
    const next = [...parts];
    const [x] = next.splice(i, 1);
    next.splice(i + d, 0, x!);
    set(next);
  };
  const promptList = `${ctx.defId}-prompt-names`.replace(/[^A-Za-z0-9_-]/g, "_");
  const varList = `${ctx.defId}-variable-names`.replace(/[^A-Za-z0-9_-]/g, "_");
  return (
    <FieldFrame path={path} label="Prompt" hintKey="promptContent" error={error}>
      <div className="flex flex-col gap-2">
        <div role="radiogroup" aria-label="Prompt form" className="flex gap-3 text-xs">
          <label className="flex items-center gap-1">
            <input type="radio" checked={mode === "text"} onChange={() => setMode("text")} />
            Text editor
          </label>
          <label className="flex items-center gap-1">
            <input
              type="radio"
              checked={mode === "parts"}
              disabled={ctx.readOnly && !isParts}
              onChange={() => {
                setMode("parts");
                if (!isParts) set(typeof value === "string" && value !== "" ? [{ type: "text", content: value }] : []);
              }}
            />
            Parts (text, includes, variables)
          </label>
        </div>
        {mode === "text" ? (
          <PromptTextEditor path={path} onError={setError} />
        ) : (
          <ol className="flex flex-col gap-2">
            {parts.map((part, i) => {
              const type = (isDocObject(part) ? part.type : "text") as PartType;
              const partPath = join(path, String(i));
              return (
                <li key={i} data-testid="prompt-part" data-part-type={type} className="flex items-start gap-1 rounded border border-slate-200 p-2 dark:border-slate-700">
                  <div className="min-w-0 flex-1">
                    <p className="mb-1 text-[11px] font-semibold text-slate-500">{PART_LABEL[type] ?? type}</p>
                    {type === "text" ? <TextField path={join(partPath, "content")} label="Content" optional={false} multiline /> : null}
                    {type === "include" ? <TextField path={join(partPath, "prompt")} label="Prompt name" optional={false} listId={promptList} /> : null}
                    {type === "env" ? <TextField path={join(partPath, "property")} label="Variable name" optional={false} listId={varList} /> : null}
                  </div>
                  <div className="flex shrink-0 flex-col gap-1">
                    <button type="button" aria-label={`Move part ${i + 1} up`} disabled={ctx.readOnly || i === 0} className={smallButton} onClick={() => move(i, -1)}>
                      ↑
                    </button>
                    <button type="button" aria-label={`Move part ${i + 1} down`} disabled={ctx.readOnly || i === parts.length - 1} className={smallButton} onClick={() => move(i, 1)}>
                      ↓
                    </button>
                    <RemoveButton label={`Remove part ${i + 1}`} disabled={ctx.readOnly} onClick={() => set(parts.filter((_, j) => j !== i))} />
                  </div>
                </li>
              );
            })}
            <li className="flex flex-wrap gap-1">
              {(["text", "include", "env"] as const).map((t) => (
                <button key={t} type="button" disabled={ctx.readOnly} className={smallButton} onClick={() => set([...parts, newPart(t)])}>
                  + {PART_LABEL[t]}
                </button>
              ))}
            </li>
          </ol>
        )}
        <Suggestions id={promptList} values={ctx.suggest(`${full}.#.prompt`)} />
        <Suggestions id={varList} values={ctx.suggest(`${full}.#.property`)} />
      </div>
    </FieldFrame>
  );
}
