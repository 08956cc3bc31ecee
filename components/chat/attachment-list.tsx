import { formatBytes } from "@/components/threads/format";
import { FileIcon } from "./icons";
import type { Attachment } from "./types";

export function fileUrl(threadId: string, path: string): string {
  return `/api/threads/${encodeURIComponent(threadId)}/fs${path.split("/").map(encodeURIComponent).join("/")}`;
}

const isImage = (a: { mimeType?: string | null; path: string }) =>
  (a.mimeType ?? "").startsWith("image/") || /\.(png|jpe?g|gif|webp|svg)$/i.test(a.path);

/**
 * A message's attachments: images as thumbnails, other files as chips. Both download rather than open, so a stored
 * SVG or HTML file never runs as a page of the app.
 */
export function AttachmentList({
  threadId,
  attachments,
  align = "start",
}: {
  threadId: string;
  attachments: Attachment[];
  align?: "start" | "end";
}) {
  if (attachments.length === 0) return null;
  return (
    <ul aria-label="Attachments" className={`flex flex-wrap gap-2 ${align === "end" ? "justify-end" : ""}`}>
      {attachments.map((a) => {
        const url = fileUrl(threadId, a.path);
        const name = a.name || a.path.split("/").pop() || a.path;
        return (
          <li key={a.path} data-testid="attachment" data-kind={isImage(a) ? "image" : "file"}>
            {isImage(a) ? (
              <a
                href={url}
                download={name}
                title={`${name} (download)`}
                className="block overflow-hidden rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700"
              >
                {/* Thumbnails: the browser renders images inertly (an SVG's scripts never run in <img>). */}
                <img
                  src={url}
                  alt={name}
                  loading="lazy"
                  className="h-28 w-auto max-w-[14rem] bg-slate-100 object-cover dark:bg-slate-800"
                />
              </a>
            ) : (
              <a
                href={url}
                download={name}
                className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
              >
                <FileIcon className="text-slate-500 dark:text-slate-400" />
                <span className="max-w-[12rem] truncate font-medium">{name}</span>
                <span className="text-slate-500 dark:text-slate-400">{formatBytes(a.size)}</span>
              </a>
            )}
          </li>
        );
      })}
    </ul>
  );
}
