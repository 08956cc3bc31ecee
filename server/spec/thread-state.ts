import type { ScheduledEffect } from "./effect";
import type {
  FileChunk,
  FileRecord,
  FileStats,
  FindResult,
  GrepResult,
  ReadFileStreamOptions,
  ReaddirResult,
  WriteFileOptions,
} from "./thread-files";
import type {
  GetMessagesOptions,
  InjectMessageInput,
  Message,
  MessagesResult,
  MessageUpdates,
  QueueMessageInput,
} from "./message";
import type { ToolResult } from "./tool-result";

/** Registry entry for a subagent child thread (resumable and non-resumable). */
export interface SubagentRegistryEntry {
  /** Child thread UUID, the stable reference address. */
  reference: string;
  /** Child agent name. */
  name: string;
  /** Child agent title (human-readable). */
  title?: string;
  /** Tool description shown to the parent model. */
  description: string;
  /** Whether this instance is resumable. */
  resumable?: boolean;
  /** Whether the parent blocks on this subagent. */
  blocking?: boolean;
  /** Human-readable instance name (from the `name:` tag). */
  threadName?: string;
  /** Groups instances created together. */
  spawnGroupId?: string;
  /** Creation time in microseconds. */
  createdAt?: number;
  /** `running`, `idle`, `terminated`, or custom status text. */
  status: string;
  /** How the child reports back to its parent. */
  parentCommunication?: "implicit" | "explicit";
}

/** One LLM request made by a thread (tokens, latency, cost). */
export interface Log {
  id: string;
  thread_id: string;
  /** Assistant message produced by this request, when any. */
  message_id?: string | null;
  agent_name?: string | null;
  prompt_name?: string | null;
  /** Model definition name (e.g. `fast`). */
  model_name: string;
  /** Provider model id sent on the wire (e.g. `gpt-4.1-mini`). */
  model: string;
  provider: string;
  side?: "a" | "b" | null;
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
  latency_ms: number;
  /** Cost in USD computed from the model's prices, when known. */
  cost_usd?: number | null;
  /** `pending` while the request is in flight; `interrupted` when a crash or a stop cut it off before its answer. */
  status: "pending" | "success" | "error" | "interrupted";
  error?: string | null;
  finish_reason?: string | null;
  /** Creation time in microseconds. */
  created_at: number;
}

/** Options of `state.getLogs`. */
export interface GetLogsOptions {
  limit?: number;
  offset?: number;
  order?: "asc" | "desc";
}

/** State of the activation currently executing on a thread (null when idle). */
export interface ExecutionState {
  /** Id of this activation (one run of the loop from wake-up to idle). */
  readonly activationId: string;
  /** Side whose turn is running. */
  readonly side: "a" | "b";
  /** Active agent name (changes on handoff). */
  readonly agentName: string;
  /** Prompt of the running side. */
  readonly promptName: string;
  /** LLM steps taken in this activation. */
  readonly stepCount: number;
  /** LLM steps taken in the current side turn. */
  readonly sideStepCount: number;
  /** Completed turns per side in the current session. */
  readonly turns: { readonly a: number; readonly b: number };
  /** Aborted when the thread is stopped or terminated. */
  readonly signal: AbortSignal;
  /**
   * The id of the tool call running (the same id when the call runs again after an interruption), or null outside a
   * tool call. Send it to external systems as the idempotency key of the call's side effect.
   */
  readonly toolCallId: string | null;
  /**
   * Which run of this tool call (or effect) this is: 1 the first time, 2, 3, … when it runs again after an
   * interruption (a crash, a restart, a lost worker). 1 outside a tool call or effect.
   */
  readonly attempt: number;
}

/** The unified API of a thread, passed to tools, hooks and effects. */
export interface ThreadState {
  // Identity
  readonly threadId: string;
  readonly agentId: string;
  readonly userId: string | null;
  /** Creation time in microseconds. */
  readonly createdAt: number;
  /** Registry of subagent children (resumable and non-resumable). */
  readonly children: SubagentRegistryEntry[];
  /** Termination time in microseconds, or null while the thread is active. */
  readonly terminated: number | null;

  // Messages
  getMessages(options?: GetMessagesOptions): Promise<MessagesResult>;
  getMessage(messageId: string): Promise<Message | null>;
  /** Store a message in the history now. */
  injectMessage(input: InjectMessageInput): Promise<Message>;
  /** Queue a message: delivered before the next LLM step when executing, or starts a turn when idle. */
  queueMessage(input: QueueMessageInput): Promise<void>;
  updateMessage(messageId: string, updates: MessageUpdates): Promise<Message>;
  /** Delete a message from the history: true when it was found and deleted, false when not found. */
  deleteMessage(messageId: string): Promise<boolean>;

  // Logs
  getLogs(options?: GetLogsOptions): Promise<Log[]>;

  // Resource loading
  loadModel<T = unknown>(name: string): Promise<T>;
  loadPrompt<T = unknown>(name: string): Promise<T>;
  loadAgent<T = unknown>(name: string): Promise<T>;
  getChildThread(referenceId: string): Promise<ThreadState | null>;
  getParentThread(): Promise<ThreadState | null>;
  getPromptNames(): string[];
  getAgentNames(): string[];
  getModelNames(): string[];
  /** Resolve a variable (thread → user → instance → agent → tool config → prompt); throws when undefined. */
  env(propertyName: string): Promise<string>;
  /** Set a thread variable and propagate it to active descendants. */
  setEnv(propertyName: string, value: string): Promise<void>;
  /** Queue a silent message to the parent (tagged with this thread's `subagent_id`); throws without a parent. */
  notifyParent(content: string): Promise<void>;
  /** Update this thread's status in its parent's registry; throws without a parent. */
  setStatus(status: string): Promise<void>;

  // Tool invocation
  /** Schedule a tool call to run in the normal tool-call flow. */
  queueTool(toolName: string, args: Record<string, unknown>): void;
  /** Run a tool now and return its result. */
  invokeTool(toolName: string, args: Record<string, unknown>): Promise<ToolResult>;

  // Effects
  /** Schedule an effect after `delay` ms (default 0); returns its id. */
  scheduleEffect(name: string, args: Record<string, unknown>, delay?: number): Promise<string>;
  getScheduledEffects(name?: string): Promise<ScheduledEffect[]>;
  removeScheduledEffect(id: string): Promise<boolean>;

  // Events
  /** Emit a custom runtime event on the thread's stream. */
  emit(event: string, data: unknown): void;

  // Context storage (in memory, for the current execution only)
  context: Record<string, unknown>;

  // File system
  writeFile(
    path: string,
    data: ArrayBuffer | string,
    mimeType: string,
    options?: WriteFileOptions,
  ): Promise<FileRecord>;
  readFile(path: string): Promise<ArrayBuffer | null>;
  readFileStream(path: string, options?: ReadFileStreamOptions): Promise<AsyncIterable<FileChunk> | null>;
  statFile(path: string): Promise<FileRecord | null>;
  readdirFile(path: string): Promise<ReaddirResult>;
  unlinkFile(path: string): Promise<void>;
  mkdirFile(path: string): Promise<FileRecord>;
  rmdirFile(path: string): Promise<void>;
  getFileStats(): Promise<FileStats>;
  grepFiles(pattern: string): Promise<GrepResult[]>;
  findFiles(pattern: string): Promise<FindResult>;
  getFileThumbnail(path: string): Promise<ArrayBuffer | null>;

  // Execution
  execution: ExecutionState | null;
  /** Soft-terminate: abort in-flight work, reject new messages, mark the parent registry entry `terminated`. */
  terminate(): Promise<void>;
  /**
   * Make `agentName` the thread's active agent and start it on the current history, like a handoff without a tool
   * call (an `ai_human` agent's side A acts; a `dual_ai` agent's session starts). Resolves once the run is durably
   * queued; an unknown agent is an error.
   */
  runAgent(agentName: string): Promise<void>;

  // Runtime context (non-portable)
  readonly _notPackableRuntimeContext?: Record<string, unknown>;
}
