/** Why the writer refused a save. `code` follows the API's error codes (design.md §7). */
export type WriteErrorCode = "FORBIDDEN" | "VALIDATION_ERROR" | "CONFLICT" | "BAD_REQUEST" | "NOT_FOUND";

/** One problem of a refused save: the file (or the new definition's name), the field and the schema's message. */
export interface WriteIssue {
  file: string;
  path: string;
  message: string;
}

export class DefinitionWriteError extends Error {
  constructor(
    readonly code: WriteErrorCode,
    message: string,
    readonly details?: WriteIssue[],
  ) {
    super(message);
    this.name = "DefinitionWriteError";
  }
}

/** The message shown when `DEFINITIONS_READONLY` forbids writes. */
export const READONLY_MESSAGE =
  "Definition files are read-only on this server (DEFINITIONS_READONLY=1): edit the files in AGENTS_DIR instead, or restart with DEFINITIONS_READONLY=0.";
