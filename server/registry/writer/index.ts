/**
 * The definition file writer: the editor's document model, surgical edits of definition files, saving, renaming
 * references and scaffolding tool files. `doc`, `doc-validate`, `references`, `serialize` and `key-order` are
 * browser-safe and may be imported by the UI directly; the rest is Node only.
 */
export * from "./doc";
export { validateDoc, issuesAt } from "./doc-validate";
export { findReferences, removeReferences, renameReferences, toolEntryTarget, type RefDoc, type Reference } from "./references";
export { newDefinitionFile, toSource } from "./serialize";
export { readDefinitionSource } from "./source";
export { patchDefinitionSource } from "./patch";
export { DefinitionWriteError, READONLY_MESSAGE, type WriteIssue, type WriteErrorCode } from "./errors";
export { contentHash } from "./files";
export { parseDefinitionPath, saveDefinitions, type SaveChange, type SaveOptions, type SaveResult } from "./save";
export { scaffoldTool, scaffoldToolInput, toolFileText, TOOL_ARG_TYPES, type ScaffoldToolInput } from "./scaffold-tool";
export { buildEditorView, type EditorDefinition, type EditorView } from "./editor-view";
