/**
 * The definition registry: loads the files under AGENTS_DIR, validates and links them into immutable snapshots,
 * reports diagnostics, and reloads on change.
 */
export { createRegistryStore, type RegistryListener, type RegistryStore, type RegistryStoreOptions } from "./watcher";
export { buildSnapshot, inputsOf, loadRegistry } from "./registry";
export { isDefinitionFileName, listDefinitionFiles, loadDefinitionFiles, type FoundFile, type LoadResult } from "./loader";
export { formatDiagnostic, sortDiagnostics } from "./diagnostics";
export { agentGraphFiles, walkAgentGraph, type GraphNode } from "./graph";
export { agentGraphDiagnostics, agentSummaries, resolvePromptTools, type AgentSummary } from "./queries";
export { graphVariables, requiredAtCreation, requiredScopedAtSpawn, toVariableDefinition } from "./variables";
export { MAX_TOOLS_PER_PROMPT } from "./link-prompts";
export { RUNTIME_TOOL_NAMES } from "./link-tool-entries";
export type * from "./types";
export { fileRoute, matchRoute, routeShape } from "./file-routes";
export { mountedPath } from "./link-routes";
export { NAME_TYPES_FILE, nameTypesDeclaration } from "./name-types";
export { writeNameTypes } from "./write-name-types";
export { packAgent, type PackOptions, type PackResult } from "./packages/pack";
export { PackRefusedError } from "./packages/collect";
export { unpackPackage, type UnpackedFile } from "./packages/unpack";
export { signFiles, verifySignature } from "./packages/signature";
export { MCP_FOLDER, type McpServerRecord } from "./mcp-servers";
export type { EvalCaseRecord, EvalRecord } from "./evals";
