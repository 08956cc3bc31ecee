"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { isEditableKind } from "@/shared/editor/doc";
import { validateDoc } from "@/shared/editor/doc-validate";
import type { FilePreview } from "@/shared/editor/save-change";
import type { SaveError } from "../save-errors";
import { docName, isDirty, type Docs } from "./editor-state";
import { saveChanges } from "./selectors";

/** The schema problems of the documents Save would write, as save errors (file, field, message); null when none. */
export function invalidBeforeSave(docs: Docs): SaveError | null {
  const invalid = Object.values(docs).filter((d) => isDirty(d) && !d.deleted && isEditableKind(d.kind) && d.value && validateDoc(d.kind, d.value).length > 0);
  if (invalid.length === 0) return null;
  const details = invalid.flatMap((d) => validateDoc(d.kind as "agents", d.value!).map((i) => ({ file: d.file ?? `${d.kind}/${docName(d)}.ts`, path: i.path, message: i.message })));
  return { message: "Fix these fields before saving:", details };
}

/** The error a tRPC call failed with, with the writer's per-field details. */
export function saveErrorOf(error: unknown): SaveError {
  const data = (error as { data?: { details?: unknown } }).data;
  const details = Array.isArray(data?.details) ? (data.details as SaveError["details"]) : [];
  return { message: error instanceof Error ? error.message : String(error), details };
}

/**
 * Save in two steps: the server says what it would write (a dry run: each file before and after, checked as Save
 * checks it), the review dialog shows it, and only its confirmation writes.
 */
export function useSaveReview(docs: Docs, readonly: boolean, onError: (error: SaveError | null) => void) {
  const trpc = useTRPC();
  const preview = useMutation(trpc.editor.preview.mutationOptions());
  const [review, setReview] = useState<FilePreview[] | null>(null);
  const requestSave = useCallback(async () => {
    if (readonly || preview.isPending) return;
    const invalid = invalidBeforeSave(docs);
    if (invalid) return onError(invalid);
    const changes = saveChanges(docs);
    if (changes.length === 0) return;
    onError(null);
    try {
      const r = await preview.mutateAsync({ changes });
      setReview(r.files);
    } catch (error) {
      onError(saveErrorOf(error));
    }
  }, [docs, readonly, preview, onError]);
  const closeReview = useCallback(() => setReview(null), []);
  return { review, requestSave, closeReview, reviewing: preview.isPending };
}
