/**
 * The definition file writer: surgical edits of definition files, saving, and scaffolding tool files. Node only. The
 * editor's document model it writes (documents, validation, references, key order, the save changes and the editor
 * view) is browser-safe and lives in `shared/editor/`.
 */
export { newDefinitionFile, toSource } from "./serialize";
export { readDefinitionSource } from "./source";
export { patchDefinitionSource } from "./patch";
export { DefinitionWriteError, READONLY_MESSAGE, type WriteIssue, type WriteErrorCode } from "./errors";
export { contentHash } from "./files";
export { parseDefinitionPath } from "./definition-path";
export { saveDefinitions, type SaveOptions, type SaveResult } from "./save";
export { scaffoldTool, scaffoldToolInput, toolFileText, TOOL_ARG_TYPES, type ScaffoldToolInput } from "./scaffold-tool";
export { buildEditorView } from "./editor-view";
export { cachedDraftSnapshot, draftId, draftSnapshot, MAX_CACHED_DRAFTS } from "./draft-snapshot";
