"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { Attachment } from "./types";

export interface Upload {
  key: string;
  file: File;
  /** Local preview of an image (object URL), revoked when the upload is removed. */
  preview: string | null;
  state: "uploading" | "done" | "error";
  error?: string;
  attachment?: Attachment;
}

export const ACCEPT = "image/*,.pdf,.txt,.md,.json,.csv";
const MAX_BYTES = 25 * 1024 * 1024;

/** A safe, unique file name under /attachments/: the original stem, a short random suffix, the extension. */
export function attachmentPath(name: string): string {
  const dot = name.lastIndexOf(".");
  const stem =
    (dot > 0 ? name.slice(0, dot) : name)
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "file";
  const ext =
    dot > 0
      ? name
          .slice(dot + 1)
          .replace(/[^A-Za-z0-9]+/g, "")
          .slice(0, 10)
          .toLowerCase()
      : "";
  const rand = Math.random().toString(36).slice(2, 7);
  return `/attachments/${stem}-${rand}${ext ? `.${ext}` : ""}`;
}

/** Files picked, pasted or dropped: uploaded at once into the thread's /attachments/ folder. */
export function useUploads(threadId: string) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const live = useRef(uploads);
  live.current = uploads;
  useEffect(() => () => live.current.forEach((u) => u.preview && URL.revokeObjectURL(u.preview)), []);

  const patch = (key: string, p: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...p } : u)));

  const upload = useCallback(
    async (u: Upload) => {
      if (u.file.size > MAX_BYTES) return patch(u.key, { state: "error", error: "larger than 25 MB" });
      const path = attachmentPath(u.file.name);
      const type = u.file.type || "application/octet-stream";
      try {
        const res = await fetch(`/api/threads/${encodeURIComponent(threadId)}/fs${path}`, {
          method: "POST",
          headers: { "content-type": type },
          body: u.file,
        });
        const body = (await res.json().catch(() => ({}))) as {
          path?: string;
          size?: number;
          mime_type?: string;
          error?: { message?: string };
        };
        if (!res.ok) throw new Error(body.error?.message ?? `upload failed (${res.status})`);
        patch(u.key, {
          state: "done",
          attachment: {
            path: body.path ?? path,
            name: u.file.name,
            mimeType: body.mime_type ?? type,
            size: body.size ?? u.file.size,
          },
        });
      } catch (err) {
        patch(u.key, { state: "error", error: err instanceof Error ? err.message : String(err) });
      }
    },
    [threadId],
  );

  const add = useCallback(
    (files: Iterable<File>) => {
      const fresh: Upload[] = [...files].map((file) => ({
        key: `${file.name}-${Math.random().toString(36).slice(2)}`,
        file,
        preview: file.type.startsWith("image/") ? URL.createObjectURL(file) : null,
        state: "uploading",
      }));
      if (fresh.length === 0) return;
      setUploads((all) => [...all, ...fresh]);
      fresh.forEach((u) => void upload(u));
    },
    [upload],
  );

  const remove = useCallback((key: string) => {
    setUploads((all) => {
      const u = all.find((x) => x.key === key);
      if (u?.preview) URL.revokeObjectURL(u.preview);
      return all.filter((x) => x.key !== key);
    });
  }, []);

  const retry = useCallback(
    (key: string) => {
      const u = live.current.find((x) => x.key === key);
      if (!u) return;
      patch(key, { state: "uploading", error: undefined });
      void upload(u);
    },
    [upload],
  );

  /** Hand the finished attachments to a message and forget them (previews stay valid until the page unloads). */
  const take = useCallback((): Attachment[] => {
    const done = live.current.filter((u) => u.state === "done" && u.attachment).map((u) => u.attachment!);
    setUploads([]);
    return done;
  }, []);

  return { uploads, add, remove, retry, take, busy: uploads.some((u) => u.state === "uploading") };
}
