"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useMemo, useRef, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { useTRPC } from "@/components/trpc-provider";
import { TagsInput } from "./tags-input";
import type { AgentSummary } from "./types";
import { VariableField, type VariableDef } from "./variable-field";

const field =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-900";

/**
 * The variables to ask for: the ones required at creation first, then the other (non-scoped) ones of the graph. A
 * required variable that the user's or the instance's variables already provide is optional here (a value given
 * here overrides it for this thread).
 */
function variablesOf(agent: AgentSummary | undefined, provided: ReadonlySet<string>): { required: VariableDef[]; optional: VariableDef[] } {
  if (!agent) return { required: [], optional: [] };
  const required = agent.requiredVariables.filter((v) => !provided.has(v.name)).map((v) => ({ ...v, required: true }));
  const names = new Set(required.map((v) => v.name));
  const optional = agent.variables
    .filter((v) => !names.has(v.name) && (!v.scoped || provided.has(v.name)))
    .map((v) => ({ ...v, required: false }));
  return { required, optional };
}

/** Start a thread: pick an agent, fill in what its graph requires, add tags and (optionally) a first message. */
export function NewThreadForm({ initialAgent }: { initialAgent: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const overview = useQuery(trpc.registry.overview.queryOptions());
  const agents = useMemo(() => overview.data?.agents ?? [], [overview.data]);
  const [picked, setPicked] = useState<string | null>(null);
  const fallback = agents.find((a) => a.type === "ai_human")?.name ?? agents[0]?.name ?? "";
  const agentName = picked ?? (initialAgent && agents.some((a) => a.name === initialAgent) ? initialAgent : fallback);
  const agent = agents.find((a) => a.name === agentName);
  const stored = useQuery({ ...trpc.account.agentVariables.queryOptions({ agent: agentName }), enabled: agentName !== "" });
  const provided = useMemo(
    () => new Set((stored.data?.variables ?? []).filter((v) => v.source === "user" || v.source === "instance").map((v) => v.name)),
    [stored.data],
  );
  const { required, optional } = variablesOf(agent, provided);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [message, setMessage] = useState("");
  const summary = useRef<HTMLDivElement>(null);
  const ids = { agent: useId(), message: useId() };
  // gcTime 0: the mutation (and the secret values in its variables) is dropped from the cache once done.
  const create = useMutation(trpc.threads.create.mutationOptions({ gcTime: 0 }));

  function selectAgent(name: string) {
    setPicked(name);
    setValues({});
    setErrors({});
    setFormError(null);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!agent) return;
    const missing = required.filter((v) => !(values[v.name] ?? "").trim());
    const next = Object.fromEntries(
      missing.map((v) => [v.name, `${v.name} is required${v.description ? `: ${v.description}` : ""}`]),
    );
    setErrors(next);
    setFormError(
      missing.length
        ? `Fill in ${missing.length === 1 ? "the required variable" : `the ${missing.length} required variables`} to start the thread.`
        : null,
    );
    if (missing.length) {
      requestAnimationFrame(() => summary.current?.focus());
      return;
    }
    const all = [...required, ...optional];
    const env = Object.fromEntries(
      all.filter((v) => (values[v.name] ?? "") !== "").map((v) => [v.name, values[v.name]!]),
    );
    const envTypes = Object.fromEntries(
      all.filter((v) => v.type === "secret" && env[v.name] !== undefined).map((v) => [v.name, "secret" as const]),
    );
    try {
      const thread = await create.mutateAsync({
        agent_id: agent.name,
        env: Object.keys(env).length ? env : undefined,
        env_types: Object.keys(envTypes).length ? envTypes : undefined,
        tags: tags.length ? tags : undefined,
        initial_messages: message.trim()
          ? [{ role: "user", content: message, metadata: { source: "chat" } }]
          : undefined,
      });
      setValues({});
      create.reset();
      router.push(`/threads/${thread.id}`);
    } catch (err) {
      const data = (err as { data?: { details?: { fields?: { path: string; message: string }[] } } }).data;
      const fields = data?.details?.fields ?? [];
      setErrors(
        Object.fromEntries(
          fields
            .filter((f) => f.path.startsWith("env."))
            .map((f) => [f.path.slice(4), `${f.path.slice(4)}: ${f.message}`]),
        ),
      );
      setFormError(err instanceof Error ? err.message : String(err));
      requestAnimationFrame(() => summary.current?.focus());
    }
  }

  if (overview.isPending) return <p className="text-sm text-slate-500 dark:text-slate-400">Loading the agents…</p>;
  if (overview.isError)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        Could not load the agents: {overview.error.message}
      </p>
    );
  const chat = agents.filter((a) => a.type === "ai_human");
  const auto = agents.filter((a) => a.type !== "ai_human");
  const dual = agent?.type === "dual_ai";
  const errorList = Object.entries(errors);
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="new-thread-heading"
      className="mx-auto flex w-full max-w-2xl flex-col gap-6"
    >
      <h1 id="new-thread-heading" className="text-xl font-semibold">
        New thread
      </h1>
      {formError ? (
        <div
          ref={summary}
          tabIndex={-1}
          role="alert"
          data-testid="form-error"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900 focus-visible:outline-2 focus-visible:outline-red-500 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100"
        >
          <p className="font-medium">{formError}</p>
          {errorList.length > 0 ? (
            <ul className="mt-1 list-disc pl-5">
              {errorList.map(([name, msg]) => (
                <li key={name}>{msg}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {initialAgent && !agents.some((a) => a.name === initialAgent) ? (
        <p
          role="status"
          className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/60 dark:text-amber-100"
        >
          There is no agent named “{initialAgent}”; pick one below.
        </p>
      ) : null}
      <div className="flex flex-col gap-2">
        <label htmlFor={ids.agent} className="text-sm font-medium">
          Agent
        </label>
        <select
          id={ids.agent}
          value={agentName}
          onChange={(e) => selectAgent(e.target.value)}
          className={field}
          data-testid="agent-select"
        >
          {chat.length ? (
            <optgroup label="Chat agents (you talk to them)">
              {chat.map((a) => (
                <option key={a.name} value={a.name}>
                  {a.title ?? a.name} ({a.name})
                </option>
              ))}
            </optgroup>
          ) : null}
          {auto.length ? (
            <optgroup label="Two-sided agents (you watch them)">
              {auto.map((a) => (
                <option key={a.name} value={a.name}>
                  {a.title ?? a.name} ({a.name})
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
        {agent ? (
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
            <Badge tone={dual ? "indigo" : "emerald"}>{agent.type}</Badge>
            {dual ? (
              <span className="text-xs">
                {agent.sides.a.label ?? "Side A"} and {agent.sides.b?.label ?? "Side B"} talk to each other
              </span>
            ) : null}
            {agent.hasErrors ? <Badge tone="red">its definitions have errors</Badge> : null}
            {agent.description ? <p className="w-full">{agent.description}</p> : null}
          </div>
        ) : null}
      </div>
      {required.length > 0 ? (
        <fieldset className="flex flex-col gap-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
          <legend className="px-1 text-sm font-semibold">Required information</legend>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            This agent&apos;s definitions need these values before a thread can start.
          </p>
          {required.map((v) => (
            <VariableField
              key={v.name}
              def={v}
              value={values[v.name] ?? ""}
              error={errors[v.name]}
              onChange={(x) => setValues((all) => ({ ...all, [v.name]: x }))}
            />
          ))}
        </fieldset>
      ) : null}
      {optional.length > 0 ? (
        <details className="rounded-lg border border-slate-200 p-4 dark:border-slate-800">
          <summary className="cursor-pointer text-sm font-semibold">Optional variables ({optional.length})</summary>
          <div className="mt-3 flex flex-col gap-4">
            {optional.map((v) => (
              <VariableField
                key={v.name}
                def={v}
                value={values[v.name] ?? ""}
                error={errors[v.name]}
                onChange={(x) => setValues((all) => ({ ...all, [v.name]: x }))}
              />
            ))}
          </div>
        </details>
      ) : null}
      <TagsInput tags={tags} onChange={setTags} />
      <div className="flex flex-col gap-1">
        <label htmlFor={ids.message} className="text-sm font-medium">
          {dual ? "Opening message" : "First message"}{" "}
          <span className="text-xs font-normal text-slate-500 dark:text-slate-400">optional</span>
        </label>
        <textarea
          id={ids.message}
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          className={field}
          data-testid="first-message"
          placeholder={
            dual
              ? `Sent as ${agent?.sides.b?.label ?? "side B"}; ${agent?.sides.a.label ?? "side A"} answers first`
              : "Start the conversation now, or later in the chat"
          }
        />
      </div>
      <div className="flex items-center gap-3">
        <button
          type="submit"
          disabled={create.isPending || !agent}
          data-testid="create-thread"
          className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50"
        >
          {create.isPending ? "Starting…" : "Start thread"}
        </button>
        <Link href="/threads" className="text-sm text-slate-600 hover:underline dark:text-slate-300">
          Cancel
        </Link>
      </div>
    </form>
  );
}
