import Link from "next/link";
import { absoluteTime, shortId } from "@/components/threads/format";
import { CopyButton } from "./copy-button";
import type { ThreadInfo } from "./types";

/** The thread's id, agent, dates, tags and variables (secret values arrive masked from the server). */
export function ThreadDetails({ thread, agentTitle }: { thread: ThreadInfo; agentTitle: string }) {
  const env = Object.entries(thread.env ?? {});
  return (
    <section aria-labelledby="details-heading" className="flex flex-col gap-2 text-sm">
      <h2 id="details-heading" className="text-sm font-semibold">
        Details
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-slate-500 dark:text-slate-400">Id</dt>
        <dd className="flex items-center gap-1 font-mono">
          <span title={thread.id}>{shortId(thread.id)}</span>
          <CopyButton text={thread.id} label="Copy id" />
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Agent</dt>
        <dd>
          {agentTitle} <span className="font-mono text-slate-500 dark:text-slate-400">{thread.root_agent_id}</span>
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Created</dt>
        <dd>{absoluteTime(thread.created_at)}</dd>
        {thread.parent_id ? (
          <>
            <dt className="text-slate-500 dark:text-slate-400">Parent</dt>
            <dd>
              <Link
                href={`/threads/${thread.parent_id}`}
                className="font-mono text-indigo-700 underline dark:text-indigo-300"
              >
                {shortId(thread.parent_id)}
              </Link>
            </dd>
          </>
        ) : null}
      </dl>
      {env.length > 0 ? (
        <div>
          <h3 className="mb-1 text-xs font-semibold text-slate-500 dark:text-slate-400">Variables</h3>
          <dl data-testid="thread-env" className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            {env.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="font-mono">{name}</dt>
                <dd
                  className="truncate font-mono text-slate-600 dark:text-slate-300"
                  title={thread.env_types?.[name] === "secret" ? "secret: never shown" : String(value)}
                >
                  {thread.env_types?.[name] === "secret" ? (
                    <span aria-label="secret value, hidden">••••</span>
                  ) : (
                    String(value)
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </section>
  );
}
