"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "../ui/badge";
import { useTRPC } from "../trpc-provider";
import { card, errorText, inputClass, tableClass } from "@/components/ui/styles";

const FROM: Record<string, string> = {
  thread: "From thread",
  user: "From user account",
  instance: "From instance",
  agent: "From agent",
  tool: "From tool config",
  prompt: "From prompt",
};

/**
 * For a chosen agent: every variable its graph declares (by which agent, prompt or tool; required or optional;
 * scoped), where its value currently comes from in the resolution order, and which required ones are missing.
 */
export function AgentVariablesPanel({ threadId, agent: fixed }: { threadId?: string; agent?: string }) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.registry.overview.queryOptions());
  const agents = overview.data?.agents.map((a) => a.name) ?? [];
  const [picked, setPicked] = useState("");
  const agent = fixed ?? (picked || agents[0] || "");
  const vars = useQuery({
    ...trpc.account.agentVariables.queryOptions({ agent, thread: threadId }),
    enabled: agent !== "",
  });
  const missing = vars.data?.variables.filter((v) => v.missing) ?? [];
  return (
    <section className={card} aria-label="Variables of an agent" data-testid="agent-variables">
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <h2 className="text-base font-semibold">Variables of an agent</h2>
        {fixed ? null : (
          <label className="flex items-center gap-2 text-sm">
            Agent
            <select value={agent} onChange={(e) => setPicked(e.target.value)} className={inputClass} aria-label="Agent">
              {agents.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </label>
        )}
        {vars.data ? (
          missing.length > 0 ? (
            <Badge tone="red">Missing: {missing.map((m) => m.name).join(", ")}</Badge>
          ) : (
            <Badge tone="emerald">Nothing required is missing</Badge>
          )
        ) : null}
      </div>
      {vars.error ? (
        <p role="alert" className="text-sm text-red-700">
          {errorText(vars.error)}
        </p>
      ) : null}
      {vars.data && vars.data.variables.length === 0 ? (
        <p className="text-sm text-slate-500">This agent&apos;s graph declares no variables.</p>
      ) : null}
      {vars.data && vars.data.variables.length > 0 ? (
        <table className={tableClass}>
          <thead>
            <tr>
              <th>Name</th>
              <th>Declared by</th>
              <th>Kind</th>
              <th>Value comes from</th>
            </tr>
          </thead>
          <tbody>
            {vars.data.variables.map((v) => (
              <tr key={v.name} data-testid="agent-variable" data-variable={v.name}>
                <td className="align-top">
                  <span className="font-mono">{v.name}</span>
                  {v.description ? <div className="text-xs text-slate-500">{v.description}</div> : null}
                </td>
                <td className="align-top text-xs">
                  {v.declared_by.map((d, i) => (
                    <div key={i}>
                      {d.kind} <span className="font-mono">{d.name}</span>
                      {d.subagent_path.length > 0 ? (
                        <span className="text-slate-500"> (in subagent {d.subagent_path.join(" → ")})</span>
                      ) : null}
                    </div>
                  ))}
                </td>
                <td className="align-top">
                  <div className="flex flex-wrap gap-1">
                    <Badge tone={v.required ? "indigo" : "neutral"}>{v.required ? "required" : "optional"}</Badge>
                    {v.type === "secret" ? <Badge tone="amber">secret</Badge> : null}
                    {v.scoped ? <Badge>scoped</Badge> : null}
                  </div>
                </td>
                <td className="align-top" data-testid="variable-source">
                  {v.source ? (
                    <span
                      title={`Also set: ${
                        v.layers
                          .slice(1)
                          .map((l) => FROM[l])
                          .join(", ") || "nowhere else"
                      }`}
                    >
                      {FROM[v.source]}
                    </span>
                  ) : v.missing ? (
                    <Badge tone="red">missing</Badge>
                  ) : v.deferred ? (
                    <span className="text-slate-500">asked for when the subagent starts</span>
                  ) : (
                    <span className="text-slate-500">not set</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="mt-3 text-xs text-slate-500">
        Resolution order, highest first:{" "}
        {vars.data?.order.join(" → ") ?? "thread → user → instance → agent → tool → prompt"}.
      </p>
    </section>
  );
}
