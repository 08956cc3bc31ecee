"use client";

import { useId, useState, type KeyboardEvent } from "react";

/** Tags as chips: Enter or a comma adds one, Backspace on an empty field removes the last. */
export function TagsInput({ tags, onChange }: { tags: string[]; onChange(tags: string[]): void }) {
  const [draft, setDraft] = useState("");
  const id = useId();
  const add = (raw: string) => {
    const fresh = raw
      .split(",")
      .map((t) => t.trim().replace(/^#/, ""))
      .filter((t) => t && !tags.includes(t));
    if (fresh.length) onChange([...tags, ...fresh].slice(0, 100));
    setDraft("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === ",") {
      e.preventDefault();
      add(draft);
    } else if (e.key === "Backspace" && draft === "" && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Tags <span className="text-xs font-normal text-slate-500 dark:text-slate-400">optional; Enter or comma to add</span>
      </label>
      <div className="flex flex-wrap items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2 py-1.5 focus-within:outline-2 focus-within:outline-indigo-500 dark:border-slate-700 dark:bg-slate-900">
        {tags.map((t) => (
          <span
            key={t}
            data-testid="tag-chip"
            className="flex items-center gap-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800"
          >
            #{t}
            <button
              type="button"
              aria-label={`Remove tag ${t}`}
              onClick={() => onChange(tags.filter((x) => x !== t))}
              className="text-slate-500 dark:text-slate-400 hover:text-slate-900 dark:hover:text-white"
            >
              ✕
            </button>
          </span>
        ))}
        <input
          id={id}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => draft && add(draft)}
          data-testid="tags-input"
          className="min-w-[8rem] flex-1 bg-transparent py-0.5 text-sm outline-none"
          placeholder={tags.length ? "" : "e.g. support, eu"}
        />
      </div>
    </div>
  );
}
