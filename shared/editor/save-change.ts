/**
 * One change of an editor save: write a definition document (a new file when `file` is null), delete a file, or
 * rename a tool file. `hash` is the content hash the editor loaded, checked by the server before it writes.
 */
import type { DocObject, EditableKind } from "./doc";

export type SaveChange =
  | { op: "write"; kind: EditableKind; file: string | null; hash: string | null; value: DocObject }
  | { op: "delete"; file: string; hash: string | null }
  | { op: "renameTool"; file: string; hash: string | null; to: string };

/** One file as a save would change it (a dry run): its text before (null: new) and after (null: deleted). */
export interface FilePreview {
  file: string;
  /** The file it moves from (a rename). */
  from?: string;
  before: string | null;
  after: string | null;
}
