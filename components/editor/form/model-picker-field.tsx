"use client";

import { useMemo, useState } from "react";
import { describeModel, modelSummary, searchModels } from "@/shared/editor/model-catalog";
import { modelFileName, unlistedModels, withListings, type PickerModel } from "@/shared/editor/provider-listing";
import { useEditor } from "../state/editor-context";
import { docName } from "../state/editor-state";
import { liveDocs } from "../state/selectors";
import { inputClass } from "./field-frame";
import { useFormCtx } from "./form-context";
import { TextField } from "./primitive-fields";
import { useProviderListings } from "./use-provider-listings";

/**
 * A prompt's model: the name (typed, completed), and a picker listing every model file with its provider, model id,
 * price, context size and capabilities, checked against the provider's own model list when it has one (context size
 * from the list when the file has none); models a provider lists without a model file can be added; a search narrows
 * both.
 */
export function ModelPickerField({ path, label, hintKey, optional, listId }: { path: string; label: string; hintKey?: string; optional: boolean; listId?: string }) {
  const ctx = useFormCtx();
  const { state, dispatch } = useEditor();
  const [query, setQuery] = useState("");
  const [error, setError] = useState<string | null>(null);
  const current = ctx.get(path);
  const files = useMemo(() => liveDocs(state.docs).filter((d) => d.kind === "models").map((d) => modelSummary(docName(d), d.value)), [state.docs]);
  const providers = useMemo(() => [...new Set(files.map((m) => m.provider).filter((p) => p !== "?"))].sort(), [files]);
  const { listings, loading } = useProviderListings(providers);
  const models = useMemo(() => withListings(files, listings), [files, listings]);
  const shown = searchModels(models, query) as PickerModel[];
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const more = unlistedModels(files, listings).filter((m) => words.every((w) => `${m.provider} ${m.id} ${m.name ?? ""}`.toLowerCase().includes(w)));
  const addModel = (m: (typeof more)[number]) => {
    const name = modelFileName(m.id, new Set(files.map((f) => f.name)));
    const value = { name, provider: m.provider, model: m.id, ...(m.contextLength !== undefined ? { capabilities: { maxContextTokens: m.contextLength } } : {}) };
    const refused = ctx.propose(path, name);
    if (refused) return setError(refused);
    dispatch({ type: "create", kind: "models", value });
  };
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
                <span className="block text-[11px] text-slate-600 dark:text-slate-300">
                  {describeModel(m)}
                  {m.listed === true ? <span data-testid="model-listed"> · listed by {m.provider}{m.displayName ? ` as ${m.displayName}` : ""}</span> : null}
                  {m.listed === false ? <span data-testid="model-unlisted" className="text-amber-700 dark:text-amber-300"> · not in {m.provider}&apos;s model list</span> : null}
                </span>
              </button>
            </li>
          ))}
          {shown.length === 0 ? <li className="px-2 py-1 text-xs text-slate-500">No model matches.</li> : null}
        </ul>
        <ProviderStatus listings={listings} loading={loading} />
        {more.length > 0 && !ctx.readOnly ? (
          <details data-testid="provider-models" className="text-xs">
            <summary className="cursor-pointer text-slate-600 dark:text-slate-300">More from the providers ({more.length}): add a model file</summary>
            <ul className="flex max-h-40 flex-col gap-0.5 overflow-y-auto">
              {more.slice(0, 50).map((m) => (
                <li key={`${m.provider}:${m.id}`}>
                  <button type="button" aria-label={`Add ${m.provider} ${m.id}`} onClick={() => addModel(m)} className="w-full rounded px-2 py-0.5 text-left hover:bg-slate-100 dark:hover:bg-slate-800">
                    ＋ <span className="font-mono">{m.id}</span>
                    <span className="text-slate-500"> · {m.provider}{m.contextLength !== undefined ? ` · ${m.contextLength} tokens context` : ""}</span>
                  </button>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {error ? (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** Which providers' lists the picker uses, and why one is missing (the model files then stand alone). */
function ProviderStatus({ listings, loading }: { listings: ReturnType<typeof useProviderListings>["listings"]; loading: string[] }) {
  if (listings.length === 0 && loading.length === 0) return null;
  return (
    <p data-testid="provider-status" className="px-1 text-[11px] text-slate-500 dark:text-slate-400">
      {listings.map((l) => ("error" in l ? `${l.provider}: no model list (${l.error}); model files only` : `${l.provider}: ${l.models.length} models listed`)).join(" · ")}
      {loading.length > 0 ? `${listings.length > 0 ? " · " : ""}asking ${loading.join(", ")} for its models…` : ""}
    </p>
  );
}
