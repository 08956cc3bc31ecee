"use client";

import { structuredPatch } from "diff";
import { useMemo } from "react";
import type { FilePreview } from "@/shared/editor/save-change";
import { Modal, primaryButton, secondaryButton } from "./modal";

function FileDiff({ file }: { file: FilePreview }) {
  const hunks = useMemo(() => structuredPatch(file.from ?? file.file, file.file, file.before ?? "", file.after ?? "", "", "", { context: 2 }).hunks, [file]);
  const added = hunks.reduce((n, h) => n + h.lines.filter((l) => l.startsWith("+")).length, 0);
  const removed = hunks.reduce((n, h) => n + h.lines.filter((l) => l.startsWith("-")).length, 0);
  const what = file.before === null ? "new file" : file.after === null ? "deleted" : file.from ? `renamed from ${file.from}` : "changed";
  return (
    <section data-testid="review-file" data-file={file.file} className="rounded border border-slate-200 dark:border-slate-700">
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 px-2 py-1 text-xs dark:border-slate-700 dark:bg-slate-800">
        <span className="font-mono font-semibold">{file.file}</span>
        <span className="text-slate-600 dark:text-slate-300">{what}</span>
        <span className="ml-auto font-mono">
          <span className="text-emerald-800 dark:text-emerald-300">+{added}</span> <span className="text-red-800 dark:text-red-300">−{removed}</span>
        </span>
      </header>
      <div className="max-h-72 overflow-auto font-mono text-xs leading-5">
        {hunks.map((h) => (
          <div key={`${h.oldStart}:${h.newStart}`}>
            <p className="bg-slate-100 px-2 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
              before line {h.oldStart}, after line {h.newStart}
            </p>
            {h.lines.map((line, i) => {
              const sign = line[0];
              const tone = sign === "+" ? "bg-emerald-50 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100" : sign === "-" ? "bg-red-50 text-red-950 dark:bg-red-950 dark:text-red-100" : "text-slate-700 dark:text-slate-200";
              return (
                <pre key={i} data-change={sign === "+" ? "after" : sign === "-" ? "before" : "same"} className={`px-2 whitespace-pre-wrap ${tone}`}>
                  {sign === "+" ? "+ " : sign === "-" ? "− " : "  "}
                  {line.slice(1)}
                </pre>
              );
            })}
          </div>
        ))}
      </div>
    </section>
  );
}

/** What Save will write, file by file (before → after), to confirm before anything is written. */
export function ReviewDialog({ files, saving, onConfirm, onClose }: { files: FilePreview[]; saving: boolean; onConfirm(): void; onClose(): void }) {
  const n = files.length;
  return (
    <Modal title="Review the changes before saving" onClose={onClose} testId="review-dialog" wide>
      {n === 0 ? (
        <p className="text-sm">Nothing to write: the files already say that.</p>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-200">
          Save writes {n} file{n === 1 ? "" : "s"}: lines marked − are the file now, lines marked + what it will say.
        </p>
      )}
      {files.map((f) => (
        <FileDiff key={f.file} file={f} />
      ))}
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Keep editing
        </button>
        <button type="button" className={primaryButton} disabled={n === 0 || saving} onClick={onConfirm}>
          {saving ? "Saving…" : `Save ${n} file${n === 1 ? "" : "s"}`}
        </button>
      </div>
    </Modal>
  );
}
