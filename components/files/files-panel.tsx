"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useRef, useState } from "react";
import { ConfirmButton } from "@/components/inspector/confirm-button";
import { buttonClass } from "@/components/ui/button";
import { FilePreview } from "./file-preview";
import { FileTreeView } from "./file-tree-view";
import { buildFileTree, fileUrl, type FileEntry } from "./file-tree";

const button = buttonClass("secondary", "sm");

async function apiError(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? `HTTP ${res.status}`;
}

/**
 * The files of a thread (`/api/threads/:id/fs/**`): a folder tree, a preview of the selected file, upload into the
 * selected folder, download, delete (asked once), refresh, and edit-and-save of text files.
 */
export function FilesPanel({ threadId, readOnly = false }: { threadId: string; readOnly?: boolean }) {
  const client = useQueryClient();
  const key = ["thread-files", threadId];
  const listing = useQuery({
    queryKey: key,
    queryFn: async () => {
      const res = await fetch(fileUrl(threadId, "/"));
      if (!res.ok) throw new Error(await apiError(res));
      return ((await res.json()) as { entries: FileEntry[] }).entries;
    },
  });
  const entries = useMemo(() => listing.data ?? [], [listing.data]);
  const tree = useMemo(() => buildFileTree(entries), [entries]);
  const [selected, setSelected] = useState<string | null>(null);
  const [folder, setFolder] = useState("/");
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const upload = useRef<HTMLInputElement>(null);
  const entry = entries.find((e) => e.path === selected && e.type === "file") ?? null;

  const refresh = () => void client.invalidateQueries({ queryKey: key });
  const uploadFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setMessage(null);
    const base = folder === "/" ? "" : folder;
    for (const f of Array.from(files)) {
      const path = `${base}/${f.name}`;
      const res = await fetch(fileUrl(threadId, path), { method: "POST", headers: { "content-type": f.type || "application/octet-stream" }, body: f });
      if (!res.ok) {
        setMessage({ kind: "error", text: `${f.name} was not uploaded: ${await apiError(res)}` });
        break;
      }
      setSelected(path);
      setMessage({ kind: "ok", text: `Uploaded ${path}` });
    }
    if (upload.current) upload.current.value = "";
    refresh();
  };
  const remove = async (path: string) => {
    const res = await fetch(fileUrl(threadId, path), { method: "DELETE" });
    setMessage(res.ok ? { kind: "ok", text: `Deleted ${path}` } : { kind: "error", text: `${path} was not deleted: ${await apiError(res)}` });
    if (res.ok) setSelected(null);
    refresh();
  };

  return (
    <section aria-label="Files of the thread" data-testid="files-panel" className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-slate-600 dark:text-slate-300">
          {entries.filter((e) => e.type === "file").length} file{entries.filter((e) => e.type === "file").length === 1 ? "" : "s"}
        </span>
        <button type="button" className={button} onClick={refresh} disabled={listing.isFetching}>
          {listing.isFetching ? "Refreshing…" : "Refresh"}
        </button>
        {!readOnly ? (
          <>
            <input ref={upload} type="file" multiple aria-label="Files to upload" tabIndex={-1} className="sr-only" id={`upload-${threadId}`} data-testid="files-upload-input" onChange={(e) => void uploadFiles(e.target.files)} />
            <button type="button" className={button} onClick={() => upload.current?.click()}>
              Upload to {folder}
            </button>
          </>
        ) : null}
        {entry ? (
          <>
            <a href={fileUrl(threadId, entry.path)} download={entry.path.split("/").pop()} className={button}>
              Download
            </a>
            {!readOnly ? <ConfirmButton label="Delete" question={`Delete ${entry.path}?`} onConfirm={() => void remove(entry.path)} testId="file-delete" /> : null}
          </>
        ) : null}
      </div>
      {message ? (
        <p role={message.kind === "error" ? "alert" : "status"} className={`text-sm ${message.kind === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-800 dark:text-emerald-300"}`}>
          {message.text}
        </p>
      ) : null}
      {listing.error ? <p role="alert" className="text-sm text-red-700 dark:text-red-400">{listing.error.message}</p> : null}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,4fr)_minmax(0,8fr)]">
        {listing.data === undefined ? (
          <p aria-busy="true" className="text-sm text-slate-600 dark:text-slate-300">Loading the files…</p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">This thread has no files yet{readOnly ? "." : ": upload one, or let its tools write some."}</p>
        ) : (
          <FileTreeView
            root={tree}
            selected={selected}
            folder={folder}
            onSelectFile={setSelected}
            onSelectFolder={(p) => {
              setFolder(p);
              setSelected(null);
            }}
          />
        )}
        {entry ? <FilePreview key={`${entry.path}:${entry.updated_at}`} threadId={threadId} entry={entry} readOnly={readOnly} /> : null}
      </div>
    </section>
  );
}
