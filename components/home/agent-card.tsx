import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { AgentSummary } from "./types";

function Side({ label, side }: { label: string; side: { prompt: string; label?: string | null } | null | undefined }) {
  if (!side) return null;
  return (
    <div className="flex gap-2 text-sm">
      <dt className="w-14 shrink-0 text-slate-500 dark:text-slate-400">{label}</dt>
      <dd>
        <span className="font-mono text-xs">{side.prompt}</span>
        {side.label ? <span className="ml-2 text-slate-500 dark:text-slate-400">({side.label})</span> : null}
      </dd>
    </div>
  );
}

const focus = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500";
const primary = `rounded-md bg-indigo-600 px-2.5 py-1 font-medium text-white hover:bg-indigo-700 ${focus}`;
const secondary = `rounded-md border border-slate-300 px-2.5 py-1 font-medium text-slate-700 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 ${focus}`;

export function AgentCard({ agent }: { agent: AgentSummary }) {
  const required = agent.requiredVariables ?? [];
  return (
    <article
      data-testid="agent-card"
      data-agent={agent.name}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <header className="flex flex-wrap items-center gap-2">
        <h3 className="font-mono text-sm font-semibold">{agent.name}</h3>
        <Badge tone={agent.type === "dual_ai" ? "indigo" : "emerald"}>{agent.type}</Badge>
        {agent.exposeAsTool ? (
          <Badge tone="amber" title={agent.toolDescription ?? undefined}>
            {agent.type === "dual_ai" ? "subagent tool" : "handoff tool"}
          </Badge>
        ) : null}
        {agent.hasErrors ? <Badge tone="red">has errors</Badge> : null}
      </header>
      {agent.title || agent.description ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{agent.description ?? agent.title}</p>
      ) : null}
      <dl className="flex flex-col gap-1">
        <Side label="Side A" side={agent.sides.a} />
        <Side label="Side B" side={agent.sides.b} />
        {agent.maxSessionTurns ? (
          <div className="flex gap-2 text-sm">
            <dt className="w-14 shrink-0 text-slate-500 dark:text-slate-400">Turns</dt>
            <dd>max {agent.maxSessionTurns}</dd>
          </div>
        ) : null}
      </dl>
      {required.length > 0 ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Requires: {required.map((v) => v.name).join(", ")}
        </p>
      ) : null}
      <p className="mt-auto truncate text-xs text-slate-500 dark:text-slate-400" title={agent.file}>
        {agent.file}
      </p>
      <nav aria-label={`${agent.title ?? agent.name}: actions`} className="flex flex-wrap gap-2 text-sm">
        <Link
          href={`/threads/new?agent=${encodeURIComponent(agent.name)}`}
          data-testid="agent-start"
          className={primary}
        >
          Start a thread
        </Link>
        <Link
          href={`/threads?agent=${encodeURIComponent(agent.name)}`}
          data-testid="agent-threads"
          className={secondary}
        >
          Threads
        </Link>
        <Link href={`/editor?root=${encodeURIComponent(agent.name)}`} data-testid="agent-edit" className={secondary}>
          Open in the editor
        </Link>
      </nav>
    </article>
  );
}
