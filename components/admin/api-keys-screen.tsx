"use client";

import { ConfirmAction } from "@/components/ui/confirm-action";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { API_SCOPES, DEFAULT_API_SCOPES, type ApiScope } from "@/shared/api-scopes";
import { useTRPC } from "../trpc-provider";
import { CopyButton } from "../chat/copy-button";
import {
  card,
  dangerButton,
  errorText,
  inputClass,
  primaryButton,
  secondaryButton,
  tableClass,
} from "@/components/ui/styles";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "Never");

const SCOPE_HELP: Record<ApiScope, string> = {
  "threads:read": "read threads, agents and settings",
  "threads:write": "start threads, send messages, write files",
  admin: "users and instance variables",
  mcp: "call the agents exposed as tools over /api/mcp",
  metrics: "read the Prometheus metrics at /api/metrics",
};
const EXPIRY_DAYS = [
  { label: "No expiry", days: 0 },
  { label: "7 days", days: 7 },
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "1 year", days: 365 },
];

/**
 * The signed-in user's API keys: create with scopes and an optional expiry (the key is shown once), list by prefix
 * with scopes, expiry, creation and last use, revoke.
 */
export function ApiKeysScreen() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const keys = useQuery(trpc.account.keys.queryOptions());
  const me = useQuery(trpc.account.me.queryOptions());
  const [scopes, setScopes] = useState<ApiScope[]>(DEFAULT_API_SCOPES);
  const [expiryDays, setExpiryDays] = useState(0);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.account.keys.queryKey() });
  const create = useMutation(trpc.account.createKey.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.account.revokeKey.mutationOptions({ onSuccess: refresh }));
  const [name, setName] = useState("");
  const [revealed, setRevealed] = useState<{ name: string; key: string } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const expires_at = expiryDays ? new Date(Date.now() + expiryDays * 86_400_000).toISOString() : null;
    const r = await create.mutateAsync({ name, scopes, expires_at });
    if (r) setRevealed({ name: r.api_key.name, key: r.key });
    setName("");
  }

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-xl font-semibold">API keys</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Keys let programs call the HTTP API as you, within the key&apos;s scopes: send <code>Authorization: Bearer &lt;key&gt;</code>. A key is shown once, when it is created, and stored only
          as a hash. A key cannot create keys; a password reset or a deactivation of your account revokes all of them.
        </p>
      </div>
      <form onSubmit={submit} className={`${card} flex flex-wrap items-end gap-3`}>
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm">
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="e.g., Production API Key" className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Expires
          <select value={expiryDays} onChange={(e) => setExpiryDays(Number(e.target.value))} className={inputClass}>
            {EXPIRY_DAYS.map((o) => (
              <option key={o.days} value={o.days}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="flex w-full flex-wrap gap-4 text-sm">
          <legend className="mb-1">Scopes</legend>
          {API_SCOPES.filter((s) => (s !== "admin" && s !== "metrics") || me.data?.user?.role === "admin").map((scope) => (
            <label key={scope} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => setScopes((cur) => (e.target.checked ? [...cur, scope] : cur.filter((x) => x !== scope)))}
              />
              <span>
                <code>{scope}</code> <span className="text-slate-500">({SCOPE_HELP[scope]})</span>
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={create.isPending || scopes.length === 0} className={primaryButton}>
          Create API key
        </button>
        {create.error ? <p role="alert" className="w-full text-sm text-red-700">{errorText(create.error)}</p> : null}
      </form>
      {revealed ? (
        <div role="dialog" aria-label="New API key" className="rounded-xl border border-emerald-300 bg-emerald-50 p-5 text-sm dark:border-emerald-800 dark:bg-emerald-950">
          <p className="font-semibold">Important: save this key now! It will not be shown again.</p>
          <p className="mt-1">Key &ldquo;{revealed.name}&rdquo;:</p>
          <div className="mt-2 flex items-center gap-2">
            <code data-testid="new-api-key" className="break-all rounded bg-white px-2 py-1 font-mono dark:bg-slate-900">
              {revealed.key}
            </code>
            <CopyButton text={revealed.key} />
          </div>
          <button type="button" onClick={() => setRevealed(null)} className={`${secondaryButton} mt-3`}>
            Done
          </button>
        </div>
      ) : null}
      <section className={card}>
        {keys.error ? <p role="alert" className="text-sm text-red-700">{errorText(keys.error)}</p> : null}
        {keys.data === null ? <p className="text-sm text-slate-500">API keys belong to accounts. The app runs in local mode: create the administrator account first (Setup).</p> : null}
        {keys.data && keys.data.length === 0 ? <p className="text-sm text-slate-500">No API keys yet.</p> : null}
        {keys.data && keys.data.length > 0 ? (
          <table className={tableClass}>
            <thead>
              <tr>
                <th>Name</th>
                <th>API key</th>
                <th>Scopes</th>
                <th>Expires</th>
                <th>Created</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id} data-testid="api-key-row">
                  <td>{k.name}</td>
                  <td className="font-mono">{k.prefix}…</td>
                  <td className="font-mono text-xs">{k.scopes.join(" ")}</td>
                  <td>{k.expires_at ? (new Date(k.expires_at) <= new Date() ? "Expired" : new Date(k.expires_at).toLocaleDateString()) : "No expiry"}</td>
                  <td>{when(k.created_at)}</td>
                  <td>{when(k.last_used_at)}</td>
                  <td className="text-right">
                    <ConfirmAction
                      label="Revoke"
                      title={`Revoke the key "${k.name}"?`}
                      description="Programs using it stop working at once."
                      confirmLabel="Revoke the key"
                      disabled={revoke.isPending}
                      triggerClassName={dangerButton}
                      onConfirm={() => revoke.mutate({ id: k.id })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </div>
  );
}
