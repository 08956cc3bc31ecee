"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "../trpc-provider";
import { card, dangerButton, errorText, inputClass, primaryButton, secondaryButton } from "@/components/ui/styles";

interface Row {
  key: number;
  name: string;
  type: "text" | "secret";
  /** What the user typed; for a stored secret, empty means "keep the stored value". */
  value: string;
  storedSecret: boolean;
}

let nextKey = 1;
const TITLE = { instance: "Instance variables", user: "My variables", thread: "Thread variables" } as const;
const HELP = {
  instance: "Defaults for every thread of this instance. User and thread values override them.",
  user: "Defaults for your account. They override instance values and are overridden by a thread's own values.",
  thread: "This thread's own values: they override every other layer, here and in the subagents it starts from now on.",
} as const;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Instance variables (admin) or my variables: a list of name, value and type. Secret values are write-only: a stored
 * secret shows as masked and is kept unless a new value is typed; the server never sends it back.
 */
export function VariablesForm({ scope, threadId = "" }: { scope: "instance" | "user" | "thread"; threadId?: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const instance = useQuery({ ...trpc.admin.instanceVariables.queryOptions(), enabled: scope === "instance" });
  const mine = useQuery({ ...trpc.account.variables.queryOptions(), enabled: scope === "user" });
  const thread = useQuery({ ...trpc.threadEnv.list.queryOptions({ threadId }), enabled: scope === "thread" });
  const query = scope === "instance" ? instance : scope === "user" ? mine : thread;
  const opts = {
    onSuccess: async () => {
      const listKey =
        scope === "instance" ? trpc.admin.instanceVariables.queryKey() : scope === "user" ? trpc.account.variables.queryKey() : trpc.threadEnv.list.queryKey();
      await qc.invalidateQueries({ queryKey: listKey });
      await qc.invalidateQueries({ queryKey: trpc.account.agentVariables.queryKey() });
      if (scope === "thread") await qc.invalidateQueries({ queryKey: trpc.chat.snapshot.queryKey() });
    },
  };
  const saveInstance = useMutation(trpc.admin.saveInstanceVariables.mutationOptions(opts));
  const saveMine = useMutation(trpc.account.saveVariables.mutationOptions(opts));
  const saveThread = useMutation(trpc.threadEnv.save.mutationOptions(opts));
  const save = scope === "instance" ? saveInstance : scope === "user" ? saveMine : saveThread;
  const [rows, setRows] = useState<Row[]>([]);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!query.data) return;
    setRows(query.data.map((v) => ({ key: nextKey++, name: v.name, type: v.type, value: v.value ?? "", storedSecret: v.type === "secret" })));
  }, [query.data]);

  const update = (key: number, patch: Partial<Row>) => {
    setSaved(false);
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  };
  const invalid = rows.filter((r) => !NAME.test(r.name.trim()));
  async function submit() {
    setSaved(false);
    const payload = {
      threadId,
      variables: rows.map((r) => ({ name: r.name.trim(), type: r.type, value: r.type === "secret" && r.storedSecret && r.value === "" ? null : r.value })),
    };
    if (scope === "instance") await saveInstance.mutateAsync(payload);
    else if (scope === "user") await saveMine.mutateAsync(payload);
    else await saveThread.mutateAsync(payload);
    setSaved(true);
  }

  if (query.data === null) return <p className="text-sm text-slate-500">Your own variables need an account: the app runs in local mode (no accounts yet).</p>;
  return (
    <section className={scope === "thread" ? "flex flex-col" : card} aria-label={TITLE[scope]} data-testid={`variables-${scope}`}>
      <h2 className={scope === "thread" ? "text-sm font-semibold" : "text-base font-semibold"}>{TITLE[scope]}</h2>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
        {HELP[scope]}{" "}
        Secret values are encrypted at rest and write-only: they are never shown again.
      </p>
      {query.error ? <p role="alert" className="text-sm text-red-700">{errorText(query.error)}</p> : null}
      <div className="flex flex-col gap-2">
        {rows.map((r, i) => (
          <div key={r.key} className="flex flex-wrap items-center gap-2" data-testid="variable-row">
            <input aria-label={`Name ${i + 1}`} value={r.name} placeholder="WEATHER_API_KEY" onChange={(e) => update(r.key, { name: e.target.value })} className={`${inputClass} w-56 font-mono`} aria-invalid={!NAME.test(r.name.trim())} />
            <input
              aria-label={`Value ${i + 1}`}
              type={r.type === "secret" ? "password" : "text"}
              autoComplete="off"
              value={r.value}
              placeholder={r.type === "secret" && r.storedSecret ? "•••••••• stored (type to replace)" : "value"}
              onChange={(e) => update(r.key, { value: e.target.value })}
              className={`${inputClass} min-w-48 flex-1`}
            />
            <select aria-label={`Type ${i + 1}`} value={r.type} onChange={(e) => update(r.key, { type: e.target.value as Row["type"] })} className={inputClass}>
              <option value="text">text</option>
              <option value="secret">secret</option>
            </select>
            <button type="button" className={dangerButton} onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}>
              Remove
            </button>
          </div>
        ))}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="button" className={secondaryButton} onClick={() => setRows((rs) => [...rs, { key: nextKey++, name: "", type: "text", value: "", storedSecret: false }])}>
          Add variable
        </button>
        <button type="button" className={primaryButton} disabled={save.isPending || invalid.length > 0} onClick={() => void submit().catch(() => undefined)}>
          Save variables
        </button>
        {invalid.length > 0 && rows.length > 0 ? <span className="text-sm text-amber-700">Names: letters, digits and _ (e.g. WEATHER_API_KEY).</span> : null}
        {saved ? <span role="status" className="text-sm text-emerald-700">Saved.</span> : null}
        {save.error ? <span role="alert" className="text-sm text-red-700">{errorText(save.error)}</span> : null}
      </div>
      <p className="mt-4 text-xs text-slate-500">Resolution order: thread, user, instance, agent, tool config, then prompt.</p>
    </section>
  );
}
