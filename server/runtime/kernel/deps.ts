import type { ThreadState, ToolResult } from "@/server/spec";
import type { Definitions } from "../definitions";
import type { SecretBox } from "../env/secret-box";
import type { EventPublisher } from "../events/publisher";
import type { LlmClient } from "../llm/types";
import type { AttachmentRecord, McpClientPort, Persistence, QueuedMessageRecord, Side, SubagentRecord, ThreadDraft, ThreadRecord } from "../ports";
import type { AbortRegistry } from "./abort-registry";
import type { StepContext } from "./step-context";

// RuntimeDeps, RuntimeCapabilities and StateScope refer to each other, so they share this file: in separate files
// they would import each other (the architecture check forbids import cycles, type imports included).

export interface RuntimeSettings {
  /** Global ceiling of LLM steps per activation (design.md §4: 250). */
  maxTotalSteps: number;
  /** How long a step's request may be in flight before it is announced on its own (default `ANNOUNCE_AFTER_MS`). */
  announceAfterMs?: number;
  /** Default OpenAI-compatible endpoint and key for models without their own. */
  defaultBaseURL?: string;
  defaultApiKey?: string;
  /** Key and endpoint of each built-in provider other than openai, by provider name (ANTHROPIC_API_KEY, …). */
  providerDefaults?: Readonly<Record<string, { baseURL?: string; apiKey?: string }>>;
  /** Reads a process-level variable a model's `apiKeyEnv` names (the composition root passes a lookup). */
  processEnv?: (name: string) => string | undefined;
}

/** Everything the engine needs, passed in by the composition root (the runtime never reads process.env). */
export interface RuntimeDeps {
  persistence: Persistence;
  events: EventPublisher;
  llm: LlmClient;
  /** How tools of MCP servers are listed and called (absent: MCP tools answer with a clear tool error). */
  mcp?: McpClientPort;
  /** The saved definitions. A draft thread's work gets deps whose `definitions` are its draft's (`depsForThread`). */
  definitions(): Definitions;
  /**
   * The definitions of an unsaved editor draft (threads started by "Try it"), built on the saved ones; throws a
   * `DefinitionError` when the draft no longer builds. Absent: draft threads stop with an error saying so.
   */
  draftDefinitions?(draft: ThreadDraft): Definitions;
  secrets: SecretBox | null;
  settings: RuntimeSettings;
  aborts: AbortRegistry;
  /** Operations of the upper layers that the kernel and `ThreadState` call (see `RuntimeCapabilities`). */
  capabilities: RuntimeCapabilities;
  /** Ask for an activation of the thread (durable: a work item). */
  schedule(threadId: string): Promise<void>;
  /** Wake the scheduler: new work (an effect) may be due sooner than it would look. */
  wake(): void;
  log(level: "debug" | "info" | "warn" | "error", message: string, data?: Record<string, unknown>): void;
}

/** A message to queue on a thread (`enqueueMessage`). */
export interface EnqueueInput {
  role: "user" | "assistant";
  content: string;
  attachments?: AttachmentRecord[] | null;
  silent?: boolean;
  metadata?: Record<string, unknown> | null;
}

/**
 * What the lower layers of the runtime (the kernel, `ThreadState`) may ask of the upper ones without importing them:
 * the runtime's folders form layers, and these operations live above their callers. The composition root builds the
 * object once (`thread/capabilities.ts`) and hands it over in `RuntimeDeps`.
 */
export interface RuntimeCapabilities {
  /** The `ThreadState` of a scope (hooks receive one; see `hookContext`). */
  threadState(scope: StateScope): ThreadState;
  /** `state.invokeTool`: run a callable tool or a subprompt now and return its result (nothing is stored). */
  invokeTool(scope: StateScope, toolName: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Queue a message durably: delivered before the thread's next step, or it starts a turn when the thread waits. */
  enqueueMessage(deps: RuntimeDeps, threadId: string, input: EnqueueInput): Promise<QueuedMessageRecord>;
  /** Soft-terminate a thread and its live descendants. */
  terminateThread(deps: RuntimeDeps, threadId: string): Promise<void>;
  /** Set a child's status in its parent's registry; false when the thread is not a subagent. */
  setChildStatus(deps: RuntimeDeps, childId: string, status: string): Promise<boolean>;
  /** `state.runAgent`: make `agentName` the thread's active agent and start it; resolves once the run is durable. */
  runAgent(deps: RuntimeDeps, threadId: string, agentName: string): Promise<void>;
}

/**
 * Where a piece of runtime work happens: the thread, the acting side, and (inside a step) the step context. Tools,
 * hooks, effects and message writes all run in a scope; `ThreadState` is built from one.
 */
export interface StateScope {
  deps: RuntimeDeps;
  thread: ThreadRecord;
  side: Side;
  signal: AbortSignal;
  stepId: string;
  ctx?: StepContext;
  /** The env of the tool config (`{name, env}` on the prompt) when a tool runs. */
  toolConfigEnv?: Record<string, string>;
  options?: Record<string, unknown>;
  /** Work started by synchronous APIs (queueTool); the caller awaits it. */
  pending?: Promise<unknown>[];
  /** `state.context`: in-memory for the current execution (the activation's object when one is running). */
  context?: Record<string, unknown>;
  /** The thread's child registry, as loaded for this scope (`state.children`). */
  children?: SubagentRecord[];
  /**
   * The tool call or effect this scope runs, and which run of it this is (1 the first time; 2, 3, … after an
   * interruption): `state.execution.toolCallId` and `attempt`.
   */
  run?: { toolCallId: string | null; attempt: number };
}
