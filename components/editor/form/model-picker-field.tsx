"use client";

import { useMemo, useState } from "react";
import { describeModel, modelSummary, searchModels } from "@/shared/editor/model-catalog";
import { useEditor } from "../state/editor-context";
import { docName } from "../state/editor-state";
import { liveDocs } from "../state/selectors";
import { inputClass } from "./field-frame";
import { useFormCtx } from "./form-context";
import { TextField } from "./primitive-fields";

/**
 * A prompt's model: the name (typed, completed), and a picker listing every model file with its provider, model id,
 * price, context size and capabilities; a search narrows it.
 */
export function ModelPickerField({ path, label, hintKey, optional, listId }: { path: string; label: string; hintKey?: string; optional: boolean; listId?: string }) {
  const ctx = useFormCtx();
  const { state } = useEditor();
  const [query, setQuery] = useState("");
  const [error, setError] = useState<string | null>(null);
  const current = ctx.get(path);
  const models = useMemo(() => liveDocs(state.docs).filter((d) => d.kind === "models").map((d) => modelSummary(docName(d), d.value)), [state.docs]);
  const shown = searchModels(models, query);
  return (
    <div className="flex flex-col gap-1">
      <TextField path={path} label={label} optional={optional} {...(hintKey ? { hintKey } : {})} {...(listId ? { listId } : {})} />
      <div data-testid="model-picker" className="flex flex-col gap-1 rounded border border-slate-200 p-1.5 dark:border-slate-700">
        <input aria-label="Search models" placeholder="Search models (name, provider, capability)…" value={query} onChange={(e) => setQuery(e.target.value)} className={`${inputClass} text-xs`} />
        <ul role="radiogroup" aria-label="Models" className="flex max-h-56 flex-col gap-0.5 overflow-y-auto">
          {shown.map((m) => (
            <li key={m.name}>
              <button
                type="button"
                role="radio"
                aria-checked={current === m.name}
                disabled={ctx.readOnly}
                data-model={m.name}
                onClick={() => setError(ctx.propose(path, m.name))}
                className={`w-full rounded px-2 py-1 text-left text-xs hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:cursor-default dark:hover:bg-slate-800 ${current === m.name ? "bg-indigo-50 ring-1 ring-indigo-400 dark:bg-indigo-950" : ""}`}
              >
                <span className="font-mono font-semibold">{m.name}</span>
                <span className="block text-[11px] text-slate-600 dark:text-slate-300">{describeModel(m)}</span>
              </button>
            </li>
          ))}
          {shown.length === 0 ? <li className="px-2 py-1 text-xs text-slate-500">No model matches.</li> : null}
        </ul>
        {error ? (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
