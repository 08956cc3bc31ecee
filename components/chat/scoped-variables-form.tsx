"use client";

import { useEffect, useId, useState, type FormEvent } from "react";

interface RequestView {
  request_id: string;
  agent: string;
  missing: string[];
  variables: { name: string; type: "text" | "secret" }[];
}

/**
 * A subagent waiting for its scoped variables: a form for the missing values, backed by
 * `GET`/`POST /api/threads/{parent}/variables/{request_id}`. Submitting stores them on the child and boots it; the
 * request is then gone. Secret values are sent once and never shown again.
 */
export function ScopedVariablesForm({
  threadId,
  requestId,
  agent,
}: {
  threadId: string;
  requestId: string;
  agent: string;
}) {
  const endpoint = `/api/threads/${encodeURIComponent(threadId)}/variables/${encodeURIComponent(requestId)}`;
  const [state, setState] = useState<"loading" | "open" | "done" | "gone">("loading");
  const [request, setRequest] = useState<RequestView | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    let live = true;
    void fetch(endpoint).then(async (res) => {
      if (!live) return;
      if (!res.ok) return setState("gone");
      setRequest((await res.json()) as RequestView);
      setState("open");
    });
    return () => {
      live = false;
    };
  }, [endpoint]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ env: values }),
    });
    if (res.ok) {
      setValues({});
      return setState("done");
    }
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    setError(body?.error?.message ?? `Could not start the subagent (${res.status})`);
  }

  if (state === "loading") return null;
  if (state === "done")
    return (
      <p role="status" className="mt-2 text-xs text-emerald-700 dark:text-emerald-300">
        Values stored: the subagent {agent} is starting.
      </p>
    );
  if (state === "gone" || !request) return null;
  const fields = request.variables.filter((v) => request.missing.includes(v.name));
  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label={`Variables for subagent ${agent}`}
      data-testid="scoped-variables-form"
      className="mt-2 flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40"
    >
      <p className="font-medium">The subagent {agent} waits for values of its scoped variables.</p>
      {fields.map((v) => (
        <label key={v.name} htmlFor={`${id}-${v.name}`} className="flex flex-col gap-1">
          <span className="font-mono text-xs">
            {v.name} {v.type === "secret" ? <span className="text-amber-800 dark:text-amber-300">(secret)</span> : null}
          </span>
          <input
            id={`${id}-${v.name}`}
            type={v.type === "secret" ? "password" : "text"}
            autoComplete="off"
            required
            value={values[v.name] ?? ""}
            onChange={(e) => setValues((all) => ({ ...all, [v.name]: e.target.value }))}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
          />
        </label>
      ))}
      {error ? (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        className="self-start rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500"
      >
        Start the subagent
      </button>
    </form>
  );
}
