"use client";

import type { SaveChange } from "@/shared/editor/save-change";
import type { SaveError } from "../save-errors";
import type { DialogState } from "../state/editor-context";
import { DeleteDialog } from "./delete-dialog";
import { NewDefinitionDialog } from "./new-definition-dialog";
import { RenameDialog } from "./rename-dialog";
import { ScaffoldToolDialog } from "./scaffold-tool-dialog";
import { TryItDialog } from "./try-it-dialog";

/**
 * `pending`: the number of unsaved changes; `draft`: those changes when Try it may run them (an editor that can save),
 * else null (Try it then says they are not in the thread); `onTry`: dock a started thread's chat.
 */
export function EditorDialogs({
  dialog,
  onClose,
  pending = 0,
  draft = null,
  onDraftError,
  onTry,
}: {
  dialog: DialogState;
  onClose(): void;
  pending?: number;
  draft?: SaveChange[] | null;
  onDraftError?(error: SaveError): void;
  onTry?(agent: string, threadId: string, draft: boolean): void;
}) {
  if (!dialog) return null;
  switch (dialog.type) {
    case "new":
      return <NewDefinitionDialog kind={dialog.kind} onClose={onClose} />;
    case "tool":
      return <ScaffoldToolDialog onClose={onClose} />;
    case "rename":
      return <RenameDialog defId={dialog.defId} onClose={onClose} />;
    case "delete":
      return <DeleteDialog defId={dialog.defId} onClose={onClose} />;
    case "try":
      return (
        <TryItDialog
          agent={dialog.agent}
          pending={pending}
          draft={draft}
          onDraftError={onDraftError}
          onClose={onClose}
          onStarted={(threadId, fromDraft) => {
            onTry?.(dialog.agent, threadId, fromDraft);
            onClose();
          }}
        />
      );
  }
}
