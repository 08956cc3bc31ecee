"use client";

import type { DialogState } from "../state/editor-context";
import { DeleteDialog } from "./delete-dialog";
import { NewDefinitionDialog } from "./new-definition-dialog";
import { RenameDialog } from "./rename-dialog";
import { ScaffoldToolDialog } from "./scaffold-tool-dialog";
import { TryItDialog } from "./try-it-dialog";

/** `pending`: the unsaved changes (Try it says they are not in the thread); `onTry`: dock a started thread's chat. */
export function EditorDialogs({ dialog, onClose, pending = 0, onTry }: { dialog: DialogState; onClose(): void; pending?: number; onTry?(agent: string, threadId: string): void }) {
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
          onClose={onClose}
          onStarted={(threadId) => {
            onTry?.(dialog.agent, threadId);
            onClose();
          }}
        />
      );
  }
}
