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
      <p className="mt-auto truncate text-xs text-slate-400" title={agent.file}>
        {agent.file}
      </p>
    </article>
  );
}
