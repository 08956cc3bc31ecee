"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Markdown } from "@/components/chat/markdown";
import { buttonClass } from "@/components/ui/button";
import { fileUrl, isEditable, previewKind, type FileEntry } from "./file-tree";

const MAX_TEXT = 1024 * 1024;
const pre = "max-h-[28rem] overflow-auto whitespace-pre-wrap break-words rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";

/** Pretty JSON, or the text as it is when it does not parse. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The preview of one file: images and PDFs from the file's URL, markdown rendered, JSON pretty-printed, text as is;
 * text files can be edited and saved back (`POST /api/threads/:id/fs/<path>`).
 */
export function FilePreview({ threadId, entry, readOnly }: { threadId: string; entry: FileEntry; readOnly: boolean }) {
  const kind = previewKind(entry.path, entry.mime_type);
  const url = fileUrl(threadId, entry.path);
  const client = useQueryClient();
  const textKey = ["thread-file-text", threadId, entry.path, entry.updated_at];
  const text = useQuery({
    queryKey: textKey,
    enabled: isEditable(kind) && entry.size <= MAX_TEXT,
    queryFn: async () => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`The file could not be read (HTTP ${res.status})`);
      return res.text();
    },
  });
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    if (draft === null) return;
    setSaving(true);
    setError(null);
    try {
      const res = await fetch(url, { method: "POST", headers: { "content-type": entry.mime_type ?? "text/plain" }, body: draft });
      if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { error?: { message?: string } } | null)?.error?.message ?? `HTTP ${res.status}`);
      client.setQueryData(textKey, draft);
      setDraft(null);
      await client.invalidateQueries({ queryKey: ["thread-files", threadId] });
    } catch (e) {
      setError(`Not saved: ${(e as Error).message}`);
    } finally {
      setSaving(false);
    }
  };

  let body: React.ReactNode;
  if (kind === "image") {
    body = <img src={url} alt={`Preview of ${entry.path}`} className="max-h-[28rem] max-w-full rounded border border-slate-200 object-contain dark:border-slate-700" />;
  } else if (kind === "pdf") {
    body = (
      <object data={url} type="application/pdf" aria-label={`PDF ${entry.path}`} data-testid="file-pdf" className="h-[28rem] w-full rounded border border-slate-200 dark:border-slate-700">
        <p className="p-3 text-sm">
          This browser shows no PDF here.{" "}
          <a href={url} download className="underline">
            Download it
          </a>
          .
        </p>
      </object>
    );
  } else if (!isEditable(kind)) {
    body = <p className="text-sm text-slate-600 dark:text-slate-300">No preview for this type of file; download it to open it.</p>;
  } else if (entry.size > MAX_TEXT) {
    body = <p className="text-sm text-slate-600 dark:text-slate-300">Too large to preview here (over 1 MB); download it to open it.</p>;
  } else if (text.error) {
    body = <p role="alert" className="text-sm text-red-700 dark:text-red-400">{text.error.message}</p>;
  } else if (text.data === undefined) {
    body = <p aria-busy="true" className="text-sm text-slate-600 dark:text-slate-300">Loading…</p>;
  } else if (draft !== null) {
    body = (
      <textarea
        aria-label={`Contents of ${entry.path}`}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        rows={16}
        spellCheck={false}
        className="w-full rounded border border-slate-300 bg-white p-2 font-mono text-xs text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      />
    );
  } else if (kind === "markdown") {
    body = <div data-testid="file-markdown" className="max-h-[28rem] overflow-auto rounded border border-slate-200 p-3 dark:border-slate-700"><Markdown text={text.data} /></div>;
  } else {
    body = <pre data-testid="file-text" className={pre}>{kind === "json" ? prettyJson(text.data) : text.data}</pre>;
  }

  return (
    <section aria-label={`Preview of ${entry.path}`} data-testid="file-preview" className="flex min-w-0 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 truncate font-mono text-sm font-semibold">{entry.path}</h3>
        {isEditable(kind) && text.data !== undefined && !readOnly ? (
          draft === null ? (
            <button type="button" className={buttonClass("secondary", "sm")} onClick={() => setDraft(text.data ?? "")}>
              Edit
            </button>
          ) : (
            <>
              <button type="button" className={buttonClass("primary", "sm")} disabled={saving} onClick={() => void save()}>
                {saving ? "Saving…" : "Save"}
              </button>
              <button type="button" className={buttonClass("secondary", "sm")} onClick={() => setDraft(null)}>
                Cancel
              </button>
            </>
          )
        ) : null}
      </div>
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
      {body}
    </section>
  );
}
