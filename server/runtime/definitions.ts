import type { ResolvedToolEntry } from "@/server/registry";
import type {
  ParsedAgentDefinition,
  ParsedEffectDefinition,
  ParsedHookDefinition,
  ParsedMcpServerDefinition,
  ParsedModelDefinition,
  ParsedPromptDefinition,
  ParsedToolDefinition,
} from "@/server/spec";

/** A prompt's tool entry resolved to what its name refers to (with its normalised config). */
export type { ResolvedToolEntry };

/**
 * The definitions the runtime reads: one immutable registry snapshot (a reload swaps the whole snapshot, so one
 * step always sees consistent definitions). Implemented over the registry in `server/registry`.
 */
export interface Definitions {
  agent(name: string): ParsedAgentDefinition | undefined;
  prompt(name: string): ParsedPromptDefinition | undefined;
  model(name: string): ParsedModelDefinition | undefined;
  tool(name: string): ParsedToolDefinition | undefined;
  hook(id: string): ParsedHookDefinition | undefined;
  effect(name: string): ParsedEffectDefinition | undefined;
  /** An MCP server of `mcp/*.ts`, by name. */
  mcpServer(name: string): ParsedMcpServerDefinition | undefined;
  /** The prompt's tools resolved to their kinds (entries whose name resolves to nothing are left out). */
  promptTools(promptName: string): ResolvedToolEntry[];
  /**
   * Variables that must be given a value when a thread of the agent is created: required variables of the agent's
   * whole graph that no definition gives a value, except scoped variables inside subagent subtrees.
   */
  requiredAtCreation(agentName: string): { name: string; type: "text" | "secret"; description: string }[];
  /**
   * Every variable declared in the agent's graph, by name (to know which ones are secret). `scoped` is true when any
   * declaration in the graph says so; `scopedInOwnThread` only counts the agent's own thread (not its subagents).
   */
  graphVariables(agentName: string): { name: string; type: "text" | "secret"; scoped: boolean; scopedInOwnThread: boolean; required: boolean }[];
  /** Required scoped variables a child of this subagent needs at spawn time (names). */
  requiredScopedAtSpawn(agentName: string): string[];
  agentNames(): string[];
  promptNames(): string[];
  modelNames(): string[];
}
