import { useId } from "react";

export interface VariableDef {
  name: string;
  type: "text" | "secret";
  required: boolean;
  description?: string;
}

const input =
  "w-full rounded-md border bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-slate-900";

/** One variable of the agent's graph: a text field, or a masked field for a secret (sent once, never shown again). */
export function VariableField({
  def,
  value,
  error,
  onChange,
}: {
  def: VariableDef;
  value: string;
  error: string | undefined;
  onChange(v: string): void;
}) {
  const id = useId();
  const hint = `${id}-hint`;
  const err = `${id}-error`;
  const secret = def.type === "secret";
  return (
    <div className="flex flex-col gap-1" data-testid="variable-field" data-variable={def.name}>
      <label htmlFor={id} className="flex flex-wrap items-center gap-2 text-sm font-medium">
        <span className="font-mono">{def.name}</span>
        {def.required ? (
          <span className="text-xs font-normal text-red-700 dark:text-red-300">required</span>
        ) : (
          <span className="text-xs font-normal text-slate-500 dark:text-slate-400">optional</span>
        )}
        {secret ? (
          <span className="rounded bg-amber-100 px-1.5 text-xs font-normal text-amber-900 dark:bg-amber-950 dark:text-amber-200">
            secret
          </span>
        ) : null}
      </label>
      <input
        id={id}
        name={`env-${def.name}`}
        type={secret ? "password" : "text"}
        autoComplete="off"
        spellCheck={false}
        data-lpignore="true"
        data-1p-ignore
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [def.description || secret ? hint : "", error ? err : ""].filter(Boolean).join(" ") || undefined
        }
        aria-required={def.required || undefined}
        className={`${input} ${error ? "border-red-500 dark:border-red-500" : "border-slate-300 dark:border-slate-700"}`}
      />
      {def.description || secret ? (
        <p id={hint} className="text-xs text-slate-500 dark:text-slate-400">
          {def.description}
          {secret ? `${def.description ? " " : ""}Stored encrypted; it is never shown again, not even to you.` : ""}
        </p>
      ) : null}
      {error ? (
        <p id={err} data-testid="field-error" className="text-xs font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
