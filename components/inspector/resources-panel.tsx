import { formatBytes, shortId } from "@/components/threads/format";
import type { NodeDetail } from "./types";

const th = "px-2 py-1 text-left font-medium text-slate-500";
const td = "px-2 py-1 align-top";

function Empty({ children }: { children: string }) {
  return <p className="text-sm text-slate-500 dark:text-slate-400">{children}</p>;
}

/** Files the thread holds, with where copied attachments came from. */
export function FilesPanel({ detail, onSelect }: { detail: NodeDetail; onSelect: (id: string) => void }) {
  if (detail.files.length === 0) return <Empty>No files.</Empty>;
  return (
    <table data-testid="files-table" className="w-full text-sm">
      <thead>
        <tr>
          <th className={th}>Path</th>
          <th className={th}>Size</th>
          <th className={th}>Came from</th>
        </tr>
      </thead>
      <tbody>
        {detail.files.map((f) => (
          <tr key={f.path} className="border-t border-slate-100 dark:border-slate-800">
            <td className={td}>
              <a className="font-mono underline-offset-2 hover:underline" href={`/api/threads/${detail.thread.id}/fs${f.path}`} target="_blank" rel="noreferrer">
                {f.path}
              </a>
            </td>
            <td className={td}>{formatBytes(f.size)}</td>
            <td className={td}>
              {f.sourceThreadId ? (
                <button type="button" className="text-left underline-offset-2 hover:underline" onClick={() => onSelect(f.sourceThreadId!)}>
                  {f.sourceThreadId === detail.thread.parent_id ? "parent" : `thread ${shortId(f.sourceThreadId)}`}: <span className="font-mono">{f.sourcePath}</span>
                </button>
              ) : (
                <span className="text-slate-500 dark:text-slate-400">created here</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The durable queue (pending and recent entries) and the scheduled effects. */
export function QueuePanel({ detail }: { detail: NodeDetail }) {
  return (
    <div className="flex flex-col gap-4">
      <section>
        <h4 className="mb-1 text-sm font-semibold">Queue</h4>
        {detail.queue.length === 0 ? <Empty>Nothing queued.</Empty> : null}
        <ul className="flex flex-col gap-1" data-testid="queue-list">
          {detail.queue.map((q) => (
            <li key={q.id} className="flex gap-2 text-sm">
              <span className="w-20 shrink-0 text-xs text-slate-500 dark:text-slate-400">{q.status}</span>
              <span className="w-16 shrink-0 text-xs">{q.role}</span>
              <span className="truncate">{q.content}</span>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h4 className="mb-1 text-sm font-semibold">Scheduled effects</h4>
        {detail.effects.length === 0 ? <Empty>No scheduled effects.</Empty> : null}
        <ul className="flex flex-col gap-1" data-testid="effects-list">
          {detail.effects.map((e) => (
            <li key={e.id} className="flex gap-2 text-sm">
              <span className="w-20 shrink-0 text-xs text-slate-500 dark:text-slate-400">{e.status}</span>
              <span className="font-mono">{e.name}</span>
              <span className="text-xs text-slate-500 dark:text-slate-400">
                {new Date(e.runAt).toLocaleString()} · {e.attempts} attempt{e.attempts === 1 ? "" : "s"}
              </span>
              {e.lastError ? <span className="text-xs text-red-700 dark:text-red-300">{e.lastError}</span> : null}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** The thread's own env values; secrets arrive masked from the server and stay masked. */
export function EnvPanel({ detail }: { detail: NodeDetail }) {
  const env = detail.thread.env ?? {};
  const names = Object.keys(env).sort();
  if (names.length === 0) return <Empty>No env values on this thread.</Empty>;
  return (
    <table data-testid="env-table" className="w-full text-sm">
      <tbody>
        {names.map((n) => (
          <tr key={n} className="border-t border-slate-100 dark:border-slate-800">
            <td className={`${td} font-mono`}>{n}</td>
            <td className={`${td} font-mono`} data-testid="env-value">
              {env[n]}
            </td>
            <td className={`${td} text-xs text-slate-500 dark:text-slate-400`}>{detail.thread.env_types?.[n] === "secret" ? "secret (masked)" : "text"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
