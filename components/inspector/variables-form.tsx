"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { buttonClass } from "@/components/ui/button";

import type { NodeDetail } from "./types";

const button = buttonClass("secondary", "sm");

type Request = NodeDetail["variableRequests"][number];
interface Described {
  variables: { name: string; type: string }[];
}

/**
 * A child spawn waiting for scoped variables (`subagent_env_required`): a form for the missing values that POSTs to
 * the bootstrap endpoint, which stores them on the child and boots it with the original payload.
 */
export function VariablesForm({ request }: { request: Request }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [types, setTypes] = useState<Record<string, string>>({});
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let stale = false;
    void fetch(request.endpoint)
      .then((r) => (r.ok ? (r.json() as Promise<Described>) : null))
      .then((d) => {
        if (!stale && d) setTypes(Object.fromEntries(d.variables.map((v) => [v.name, v.type])));
      });
    return () => {
      stale = true;
    };
  }, [request.endpoint]);

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(request.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ env: values }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? `The server answered ${res.status}`);
      }
      await queryClient.invalidateQueries({ queryKey: trpc.inspector.pathKey() });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      data-testid="variables-form"
      data-request={request.requestId}
      className="flex flex-col gap-2 rounded-lg border border-orange-200 bg-orange-50/50 p-3 dark:border-orange-900 dark:bg-orange-950/30"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="text-sm">
        <span className="font-semibold">{request.agent}</span> waits for {request.missing.length} scoped variable
        {request.missing.length === 1 ? "" : "s"} before it can start.
      </p>
      {request.missing.map((name) => (
        <label key={name} className="flex flex-col gap-0.5 text-sm">
          <span className="font-mono text-xs">
            {name}
            {types[name] === "secret" ? " (secret: stored encrypted, never shown to a model)" : ""}
          </span>
          <input
            name={name}
            type={types[name] === "secret" ? "password" : "text"}
            autoComplete="off"
            required
            value={values[name] ?? ""}
            onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
          />
        </label>
      ))}
      <div className="flex items-center gap-2">
        <button type="submit" className={button} disabled={busy}>
          Provide and start
        </button>
        <code className="text-xs text-slate-500 dark:text-slate-400">POST {request.endpoint}</code>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </form>
  );
}
