/** The records the runtime reads and writes through its ports. Times in microseconds are numbers (µs since epoch). */

export type Side = "a" | "b";
export type ThreadStatus = "running" | "idle" | "terminated";
export type StopReason =
  | "session_stop"
  | "session_fail"
  | "stop_tool"
  | "response"
  | "max_steps"
  | "max_session_turns"
  | "max_total_steps"
  | "user_stop"
  | "error";
export type MessageRole = "system" | "user" | "assistant" | "tool";

/** Runtime bookkeeping kept on the thread row (JSON), so that a restart resumes exactly where the thread was. */
export interface ThreadRuntimeState {
  /** The side turn in progress (`active`) or due next; null when nothing is due. */
  turn: { side: Side; active: boolean; steps: number; startSeq: number } | null;
  /** Completed turns per side in the current session (dual_ai `maxSessionTurns`). */
  turnsCompleted: { a: number; b: number };
  /** Message seq at which each side's previous turn ended (context of `includeChat: false`). */
  lastTurnEndSeq: { a: number; b: number };
  /** LLM steps in the current activation (global ceiling). */
  activationSteps: number;
  /** Set when the dual_ai session (or a child's session) has ended. */
  session: { ended: boolean; reason?: StopReason; ok?: boolean; result?: string; attachments?: string[] };
  /** Prompts whose immediate tools already ran for the current activation of the prompt. */
  immediateDone: string[];
  /** Increases on each handoff: a new activation of the active prompt (keys immediate spawns). */
  promptActivation?: number;
  /** A continue request (`POST /continue`) waiting to be honoured. */
  continueRequested?: boolean;
  /** Set on a fork: where it came from, and the origin's children it refers to (read-only; never run or changed). */
  fork?: ForkOrigin;
  /** W3C `traceparent` of the call that spawned this child thread (tracing on): its activations' spans join that trace. */
  traceParent?: string;
}

/** Where a forked thread came from (`POST /api/threads/:id/fork`). */
export interface ForkOrigin {
  fromThreadId: string;
  fromMessageId: string;
  /** The message at the fork point was edited. */
  edited: boolean;
  /** The fork regenerates this reply of the origin (it answers the message before it again). */
  regeneratedMessageId?: string;
  /** The origin's child registry entries of the copied history, as references to their transcripts. */
  children: { childId: string; name: string; title: string | null; description: string; resumable: boolean; status: string; toolName: string }[];
}

export interface ThreadRecord {
  id: string;
  /** The active agent (changes on handoff). */
  agentId: string;
  /** The agent the thread was created for. */
  rootAgentId: string;
  parentId: string | null;
  userId: string | null;
  status: ThreadStatus;
  stopReason: StopReason | null;
  /** Termination time in µs, or null. */
  terminatedAt: number | null;
  /**
   * When a user stop was requested (µs) and not yet applied. Durable: the executor (in any process, after a restart
   * too) applies it before its next LLM step or tool run, and clears it when it records `user_stop`.
   */
  stopRequestedAt: number | null;
  tags: string[];
  name: string | null;
  state: ThreadRuntimeState;
  createdAt: Date;
  updatedAt: Date;
  lastActivityAt: Date;
  version: number;
}

export interface ToolCallRecord {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface AttachmentRecord {
  path: string;
  name?: string;
  mimeType?: string;
  size?: number;
}

export interface MessageRecord {
  id: string;
  threadId: string;
  seq: number;
  role: MessageRole;
  content: string | null;
  name: string | null;
  toolCalls: ToolCallRecord[] | null;
  toolCallId: string | null;
  toolStatus: "success" | "error" | null;
  reasoningContent: string | null;
  attachments: AttachmentRecord[] | null;
  silent: boolean;
  depth: number;
  /** The side that authored the message (tool messages: the side whose call it answers). */
  side: Side | null;
  metadata: Record<string, unknown> | null;
  subagentId: string | null;
  /** µs since epoch. */
  createdAt: number;
}

export type NewMessage = Omit<MessageRecord, "id" | "threadId" | "seq" | "createdAt"> & { id?: string; createdAt?: number };

export interface QueuedMessageRecord {
  id: string;
  threadId: string;
  seq: number;
  role: "user" | "assistant";
  content: string;
  attachments: AttachmentRecord[] | null;
  silent: boolean;
  metadata: Record<string, unknown> | null;
  status: "pending" | "delivered" | "rejected";
  createdAt: Date;
}

export type LlmLogStatus = "pending" | "success" | "error" | "interrupted";

export interface LlmLogRecord {
  id: string;
  threadId: string;
  messageId: string | null;
  side: Side | null;
  step: number | null;
  modelName: string;
  provider: string;
  modelId: string;
  attempt: number;
  request: unknown;
  response: unknown;
  /**
   * `pending` from when the request is sent until its outcome is written; `interrupted` when the process died (or the
   * call was cancelled) before that: the thread's next activation closes it.
   */
  status: LlmLogStatus;
  error: string | null;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cost: number;
  latencyMs: number | null;
  ttftMs: number | null;
  startedAt: Date;
  finishedAt: Date | null;
}

export interface WorkItemRecord {
  id: string;
  threadId: string | null;
  kind: string;
  payload: Record<string, unknown>;
  runAt: Date;
  attempts: number;
}

export type EnvScope = "thread" | "user" | "instance";

export interface EnvValueRecord {
  scope: EnvScope;
  /** Thread id, user id, or `instance`. */
  ownerKey: string;
  name: string;
  type: "text" | "secret";
  /** Plain text for `text`; ciphertext for `secret` (the runtime's env module encrypts and decrypts). */
  value: string;
  updatedAt: Date;
}

export interface FileRecordRow {
  threadId: string;
  path: string;
  isDirectory: boolean;
  mimeType: string | null;
  size: number;
  sourceThreadId: string | null;
  sourcePath: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
}

export type EffectStatus = "pending" | "running" | "done" | "failed" | "cancelled";

export interface ScheduledEffectRecord {
  id: string;
  threadId: string;
  name: string;
  args: Record<string, unknown>;
  runAt: Date;
  status: EffectStatus;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A child in its parent's registry (spec `SubagentRegistryEntry` plus bookkeeping). */
export interface SubagentRecord {
  parentId: string;
  /** The child thread id: the reference. */
  childId: string;
  /** The child agent. */
  name: string;
  title: string | null;
  description: string;
  resumable: boolean;
  blocking: boolean;
  threadName: string | null;
  spawnGroupId: string | null;
  /** `running`, `idle`, `failed`, `terminated`, or custom status text. */
  status: string;
  parentCommunication: "implicit" | "explicit";
  /** The parent tool (agent name or `subagent_create`) that spawned it. */
  toolName: string;
  /** The parent tool call that spawned it (idempotent spawns after a restart). */
  toolCallId: string | null;
  /** The parent tool call waiting for this child's next report (blocking calls). */
  reportedAt: Date | null;
  createdAt: number;
  updatedAt: Date;
}

export interface VariableRequestRecord {
  id: string;
  parentThreadId: string;
  agent: string;
  required: string[];
  missing: string[];
  payload: Record<string, unknown>;
  status: "open" | "fulfilled";
  createdAt: Date;
}

export type ToolApprovalStatus = "pending" | "approved" | "denied" | "expired";

/** A tool call held for a human decision (tools with `approval`). */
export interface ToolApprovalRecord {
  id: string;
  threadId: string;
  /** The assistant message that made the call. */
  messageId: string;
  toolCallId: string;
  toolName: string;
  /** The model's arguments. */
  args: Record<string, unknown>;
  status: ToolApprovalStatus;
  /** The approver's arguments, when they edited the call. */
  decidedArgs: Record<string, unknown> | null;
  note: string | null;
  decidedBy: string | null;
  expiresAt: Date | null;
  decidedAt: Date | null;
  createdAt: Date;
}
