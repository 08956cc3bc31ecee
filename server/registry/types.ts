import type {
  Controller,
  DefinitionKind,
  ImmediateConfig,
  MarkedThreadEndpoint,
  ParsedAgentDefinition,
  ParsedEffectDefinition,
  ParsedHookDefinition,
  ParsedModelDefinition,
  ParsedPromptDefinition,
  ParsedToolDefinition,
  RouteKind,
  RouteMethod,
  SessionToolConfig,
  VariableDefinition,
} from "@/server/spec";
import type { Diagnostic } from "@/shared/diagnostic";
import type { EvalRecord } from "./evals";
import type { McpServerRecord } from "./mcp-servers";
import type { PackageInfo } from "./packages/load-packages";
import type { ProviderRecord } from "./provider-loader";

export type { PackageInfo } from "./packages/load-packages";

export type { DefinitionKind } from "@/server/spec";

// ─── Options and loaded files ──────────────────────────────────────────────

export interface RegistryOptions {
  /** Absolute AGENTS_DIR (holds `agents/`, `prompts/`, `models/`, `tools/`, `hooks/`, `effects/`). */
  dir: string;
  /** Absolute path of `server/spec/index.ts`, the target of the `@studio/spec` import in definition files. */
  specModulePath: string;
  /** Absolute project root; modules imported by definition files resolve from here. */
  projectRoot: string;
}

/** A definition file whose module loaded and has an object as default export (not yet validated). */
export interface LoadedFile {
  kind: DefinitionKind;
  file: string;
  absPath: string;
  /** File name without extension (the registry name of a tool). */
  baseName: string;
  value: object;
}

/** Every definition file found, with the name it defines and whether any error concerns it. */
export interface DefinitionFileInfo {
  kind: DefinitionKind;
  file: string;
  absPath: string;
  /** Registry name, when the file loaded and validated far enough to have one. */
  name?: string;
  /** The package the file belongs to (installed or under packed/); such files are read-only. */
  package?: string;
  errors: number;
  warnings: number;
}

// ─── Entries ────────────────────────────────────────────────────────────────

interface EntryBase<D> {
  name: string;
  file: string;
  absPath: string;
  /** The validated definition (zod output: defaults applied). */
  definition: D;
  /** The package that defines it (its name is then `package/localName`); absent for the root graph's own. */
  package?: string;
}

/** A side with its session bindings in object form. */
export interface ResolvedSide {
  prompt: string;
  label?: string;
  stopOnResponse: boolean;
  stopTool?: string;
  stopToolResponseProperty?: string;
  maxSteps?: number;
  sessionStop?: SessionToolConfig;
  sessionFail?: SessionToolConfig;
  sessionStatus?: SessionToolConfig;
}

export interface AgentRecord extends EntryBase<ParsedAgentDefinition> {
  sides: { a: ResolvedSide; b?: ResolvedSide };
}

/** Normalised config of a callable tool entry. */
export interface CallableToolConfig {
  env: Record<string, string>;
  options: Record<string, unknown>;
}

/** Normalised config of a subprompt entry (defaults applied). */
export interface SubpromptToolConfig {
  includeTextResponse: boolean;
  includeToolCalls: boolean;
  includeErrors: boolean;
  initUserMessageProperty?: string;
  initAttachmentsProperty?: string;
}

/** Normalised resumable config (parentCommunication defaults to `implicit`). */
export interface ResolvedResumableConfig {
  receives_messages: "side_a" | "side_b";
  maxInstances?: number;
  parentCommunication: "implicit" | "explicit";
}

/** Normalised config of a subagent entry (`blocking` defaults to true, `resumable` to false). */
export interface SubagentEntryConfig {
  blocking: boolean;
  initUserMessageProperty?: string;
  initAttachmentsProperty?: string;
  initAgentNameProperty?: string;
  immediate: boolean | ImmediateConfig;
  optional?: string;
  resumable: false | ResolvedResumableConfig;
}

/** A prompt `tools` entry resolved to what its name refers to. `index` is its position in `tools`. */
export type ResolvedToolEntry =
  | { kind: "tool"; name: string; index: number; config: CallableToolConfig }
  | { kind: "subprompt"; name: string; index: number; config: SubpromptToolConfig }
  | { kind: "handoff"; name: string; index: number }
  | { kind: "subagent"; name: string; index: number; config: SubagentEntryConfig }
  /** A tool of an MCP server; `name` is the name the model sees (`server__tool`). */
  | { kind: "mcp"; name: string; index: number; server: string; tool: string };

export type ResolvedToolKind = ResolvedToolEntry["kind"];

export interface PromptRecord extends EntryBase<ParsedPromptDefinition> {
  /** Resolved tool entries, in order; entries that do not resolve (see diagnostics) are left out. */
  tools: ResolvedToolEntry[];
  /** Prompts included directly through `include` parts. */
  includes: string[];
  /** Variables read directly through `env` parts. */
  envProperties: string[];
  /** Fields of `requiredSchema`, when it has one. */
  schemaFields?: string[];
}

export interface ModelRecord extends EntryBase<ParsedModelDefinition> {
  fallbacks: string[];
}

export interface ToolRecord extends EntryBase<ParsedToolDefinition> {
  /** Fields of `args`, when it has a schema. */
  argFields?: string[];
}

export type HookRecord = EntryBase<ParsedHookDefinition>;
export type EffectRecord = EntryBase<ParsedEffectDefinition>;

// ─── Snapshot ───────────────────────────────────────────────────────────────

/** An immutable, linked view of every definition under AGENTS_DIR at one moment. */
export interface RegistrySnapshot {
  /** Increases by one with every load of a store (1 for the first). */
  readonly version: number;
  /** ISO time the load finished. */
  readonly loadedAt: string;
  /** Milliseconds the load (import, validation, linking) took. */
  readonly loadMs: number;
  /** Absolute AGENTS_DIR. */
  readonly dir: string;
  readonly agents: ReadonlyMap<string, AgentRecord>;
  readonly prompts: ReadonlyMap<string, PromptRecord>;
  readonly models: ReadonlyMap<string, ModelRecord>;
  readonly tools: ReadonlyMap<string, ToolRecord>;
  readonly hooks: ReadonlyMap<string, HookRecord>;
  readonly effects: ReadonlyMap<string, EffectRecord>;
  /** MCP servers from `mcp/*.ts` whose definitions are valid. */
  readonly mcpServers: ReadonlyMap<string, McpServerRecord>;
  /** Thread endpoints from `api/**` that are mounted (files with errors or colliding routes are left out). */
  readonly endpoints: readonly RouteRecord[];
  /** Controllers from `controllers/**` that are mounted. */
  readonly controllers: readonly RouteRecord[];
  /** Custom providers from `providers/*.ts` that passed their checks (the built-in ones are not listed). */
  readonly providers: ReadonlyMap<string, ProviderRecord>;
  /** Evals from `evals/*.ts` whose definitions, cases and references are valid. */
  readonly evals: ReadonlyMap<string, EvalRecord>;
  /** Sorted by file, then severity, then field. */
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly DefinitionFileInfo[];
  /** Packed agent graphs found (AGENTS_DIR/packed/<pkg>, node_modules next to AGENTS_DIR); absent when none. */
  readonly packages?: readonly PackageInfo[];
}

// ─── Variables ──────────────────────────────────────────────────────────────

/** Where a variable is declared within an agent's graph. */
export interface VariableDeclarationSite {
  kind: "agents" | "prompts" | "tools";
  name: string;
  file: string;
  /** Subagents between the root agent and the declaring definition (`[]` = the root thread). */
  subagentPath: string[];
}

/** Where a definition value for a variable comes from. */
export interface DefinitionValueSource {
  kind: "agent env" | "prompt env" | "tool config env";
  /** The agent or prompt that holds the value (for tool config env: the prompt, with `tool` set). */
  name: string;
  file: string;
  tool?: string;
  subagentPath: string[];
}

/** One variable of an agent's graph, merged over all its declarations. */
export interface GraphVariable extends VariableDefinition {
  declaredBy: VariableDeclarationSite[];
  /** True when every declaration is inside a subagent subtree. */
  onlyInSubagents: boolean;
  /** True when a declaration in the agent's own thread (not inside a subagent subtree) says `scoped: true`. */
  scopedInOwnThread: boolean;
  /** True when a definition (agent env, prompt env, tool config env) gives it a value. */
  hasDefinitionValue: boolean;
}

export interface GraphVariables {
  agent: string;
  variables: GraphVariable[];
  /** Names with a definition value, and where each value comes from. */
  definitionValues: Record<string, DefinitionValueSource[]>;
}

// ─── File routes (thread endpoints and controllers) ─────────────────────────

/** A file under `api/` or `controllers/` whose module loaded (its default export not yet checked). */
export interface LoadedRouteFile {
  kind: RouteKind;
  /** Relative to AGENTS_DIR with `/` separators (`api/items/[itemId]/approve.post.ts`). */
  file: string;
  absPath: string;
  /** The default export (undefined when the file has none). */
  value: unknown;
}

/** A mounted file route: a thread endpoint (`api`) or a controller (`controllers`). */
export interface RouteRecord {
  kind: RouteKind;
  method: RouteMethod;
  /** The route below its mount point, with `:param` segments (`/items/:itemId/approve`; `/` for the root index). */
  route: string;
  /** Names of the route's params, in order. */
  params: string[];
  file: string;
  absPath: string;
  /** The handler (`defineThreadEndpoint` / `defineController`). */
  handler: MarkedThreadEndpoint | Controller;
  /** The package whose endpoint it is (mounted below `/packages/<package>`). */
  package?: string;
}
