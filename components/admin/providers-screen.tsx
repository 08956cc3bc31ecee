"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge } from "../ui/badge";
import { useTRPC } from "../trpc-provider";
import { card, errorText, tableClass } from "@/components/ui/styles";

const STATUS = {
  configured: { tone: "emerald", text: "Configured" },
  "instance variable": { tone: "emerald", text: "Via instance variable" },
  "not configured": { tone: "red", text: "Not configured" },
} as const;

/** The model providers the definitions use, and whether each key is set (never the key). */
export function ProvidersScreen() {
  const trpc = useTRPC();
  const providers = useQuery(trpc.account.providers.queryOptions());
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold">Providers</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Model endpoints used by the model definitions, and whether their API key is set. Keys come from the environment (or, for a model&apos;s <code>apiKeyEnv</code>, from variables); they are never shown.
        </p>
      </div>
      {providers.error ? <p role="alert" className="text-sm text-red-700">{errorText(providers.error)}</p> : null}
      <section className={card}>
        {providers.data && providers.data.length === 0 ? <p className="text-sm text-slate-500">No model definitions yet.</p> : null}
        {providers.data && providers.data.length > 0 ? (
          <table className={tableClass}>
            <thead>
              <tr>
                <th>Provider</th>
                <th>Endpoint</th>
                <th>API key</th>
                <th>Models</th>
              </tr>
            </thead>
            <tbody>
              {providers.data.map((p) => (
                <tr key={`${p.base_url}|${p.key_variable}`} data-testid="provider-row">
                  <td>{p.provider === "openai" ? "OpenAI-compatible" : p.provider}</td>
                  <td className="font-mono text-xs">{p.base_url}</td>
                  <td>
                    <Badge tone={STATUS[p.key_status].tone}>{STATUS[p.key_status].text}</Badge>
                    {p.key_status === "not configured" ? <div className="mt-1 text-xs text-slate-500">Required: {p.key_variable}</div> : <div className="mt-1 font-mono text-xs text-slate-500">{p.key_variable}</div>}
                  </td>
                  <td className="text-xs">{p.models.join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </div>
  );
}
