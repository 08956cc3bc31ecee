import type { ThreadEventEnvelope, RuntimeEvent } from "@/shared/runtime-events";
import type {
  SubagentRecord,
  VariableRequestRecord,
  EffectStatus,
  ScheduledEffectRecord,
  EnvScope,
  EnvValueRecord,
  FileRecordRow,
  LlmLogRecord,
  MessageRecord,
  NewMessage,
  QueuedMessageRecord,
  StopReason,
  ThreadRecord,
  ThreadRuntimeState,
  ThreadStatus,
  ToolApprovalRecord,
  ToolApprovalStatus,
  WorkItemRecord,
} from "./records";

export interface NewThread {
  id?: string;
  agentId: string;
  parentId?: string | null;
  userId?: string | null;
  tags?: string[];
  name?: string | null;
  state: ThreadRuntimeState;
  status?: ThreadStatus;
}

export interface ThreadPatch {
  agentId?: string;
  status?: ThreadStatus;
  stopReason?: StopReason | null;
  terminatedAt?: number | null;
  stopRequestedAt?: number | null;
  tags?: string[];
  name?: string | null;
  state?: ThreadRuntimeState;
}

export interface ThreadListFilter {
  agentId?: string;
  parentId?: string | null;
  status?: ThreadStatus;
  userId?: string;
  search?: string;
  limit?: number;
  offset?: number;
}

/** A stop or terminate recorded on a thread, for an activation that runs it to apply. */
export interface PendingAbort {
  id: string;
  reason: "user_stop" | "terminated";
}

export interface ThreadStore {
  create(input: NewThread): Promise<ThreadRecord>;
  get(id: string): Promise<ThreadRecord | null>;
  /** Apply a patch; bumps `version` and `updatedAt`. */
  update(id: string, patch: ThreadPatch): Promise<ThreadRecord>;
  list(filter: ThreadListFilter): Promise<{ threads: ThreadRecord[]; total: number }>;
  /** Ids of threads whose status is `running` (resumed at start). */
  listRunning(): Promise<string[]>;
  /**
   * Of `ids`, the threads with an abort to apply: terminated (`terminated`), or a stop requested and not yet applied
   * (`user_stop`). One statement for all of them: a process checks every thread it runs at once (kernel/stop-poll.ts).
   */
  pendingAborts(ids: readonly string[]): Promise<PendingAbort[]>;
  /**
   * In a transaction: lock the thread row until commit without reading it (PostgreSQL `FOR UPDATE`; a no-op where
   * transactions already run one at a time, as on SQLite). `get` in a transaction locks it too.
   */
  lock(id: string): Promise<void>;
}

export interface MessageListOptions {
  afterSeq?: number;
  beforeSeq?: number;
  limit?: number;
  offset?: number;
  order?: "asc" | "desc";
  includeSilent?: boolean;
}

export interface MessageStore {
  /** Insert with the thread's next `seq`. */
  append(threadId: string, message: NewMessage): Promise<MessageRecord>;
  get(id: string): Promise<MessageRecord | null>;
  list(threadId: string, opts?: MessageListOptions): Promise<MessageRecord[]>;
  count(threadId: string, opts?: { includeSilent?: boolean }): Promise<number>;
  /** Highest seq of the thread's messages (0 when none). */
  lastSeq(threadId: string): Promise<number>;
  update(id: string, patch: Partial<Omit<MessageRecord, "id" | "threadId" | "seq" | "createdAt">>): Promise<MessageRecord>;
  delete(id: string): Promise<boolean>;
}

export interface NewQueuedMessage {
  role: "user" | "assistant";
  content: string;
  attachments?: QueuedMessageRecord["attachments"];
  silent?: boolean;
  metadata?: Record<string, unknown> | null;
}

export interface QueueStore {
  enqueue(threadId: string, input: NewQueuedMessage): Promise<QueuedMessageRecord>;
  /** Pending entries in FIFO order. */
  pending(threadId: string): Promise<QueuedMessageRecord[]>;
  markDelivered(id: string, messageId: string): Promise<void>;
  /** Reject every pending entry (terminate). Returns how many. */
  rejectPending(threadId: string): Promise<number>;
}

export interface EventLog {
  /** Append with the thread's next contiguous sequence number. */
  append(threadId: string, event: RuntimeEvent): Promise<ThreadEventEnvelope>;
  /**
   * Append several events of one thread, in order, with the next contiguous sequence numbers (one counter bump for
   * all). Call inside the transaction that makes the state change they describe.
   */
  appendMany(threadId: string, events: RuntimeEvent[]): Promise<ThreadEventEnvelope[]>;
  /** Persisted events with seq > afterSeq, ascending. */
  after(threadId: string, afterSeq: number, limit?: number): Promise<ThreadEventEnvelope[]>;
  lastSeq(threadId: string): Promise<number>;
}

export type NewLlmLog = Omit<LlmLogRecord, "id"> & {
  id?: string;
  /** `request` already serialized (the exact bytes sent): a store that keeps JSON text may write it as is. */
  requestText?: string;
};

/** What a request's log row gets once its outcome is known (`LlmLogStore.complete`). */
export type LlmLogOutcome = Pick<
  LlmLogRecord,
  "messageId" | "response" | "status" | "error" | "inputTokens" | "outputTokens" | "cachedTokens" | "cost" | "latencyMs" | "ttftMs" | "finishedAt"
>;

export interface LlmLogStore {
  /** A request's row: `pending` when written as the request is sent (then `complete`d), or written whole afterwards. */
  insert(log: NewLlmLog): Promise<LlmLogRecord>;
  /** Write the outcome of a `pending` row. */
  complete(id: string, outcome: LlmLogOutcome): Promise<void>;
  /**
   * Close the thread's `pending` rows as `interrupted` (with `error`): requests cut off by a crash or a cancellation,
   * whose answer will never be written. Returns how many.
   */
  interruptPending(threadId: string, error: string): Promise<number>;
  /** A page of the thread's request logs, oldest first (`order: "desc"`: newest first). */
  list(threadId: string, opts?: { limit?: number; offset?: number; order?: "asc" | "desc" }): Promise<LlmLogRecord[]>;
  /** One request log, or null. */
  get(id: string): Promise<LlmLogRecord | null>;
  /**
   * The `request` column of some rows as stored (a delta row holds its difference from an earlier row; see
   * server/db/llm-log-chain.ts). `list` and `get` return requests in full.
   */
  storedRequests(ids: string[]): Promise<{ id: string; request: unknown }[]>;
  /** Token and cost totals for a set of threads. */
  totals(threadIds: string[]): Promise<{ inputTokens: number; outputTokens: number; cachedTokens: number; cost: number; requests: number }>;
}

export interface WorkStore {
  /** Idempotent: at most one pending item per `dedupeKey`. */
  enqueue(item: { kind: string; threadId?: string | null; payload?: Record<string, unknown>; runAt?: Date; dedupeKey?: string }): Promise<void>;
  /** Claim up to `limit` due items whose thread is not leased by another owner. */
  claim(owner: string, limit: number, leaseMs: number): Promise<WorkItemRecord[]>;
  complete(id: string): Promise<void>;
  /** Delete pending items whose payload names this effect (a cancelled effect). */
  cancelEffect(effectId: string): Promise<void>;
  fail(id: string, error: string, retryAt: Date | null): Promise<void>;
  extendLeases(owner: string, leaseMs: number): Promise<void>;
  /** Release claimed items whose lease expired (or, with `all`, every claimed item: embedded single-process start). */
  releaseExpired(opts?: { all?: boolean }): Promise<number>;
  nextRunAt(): Promise<Date | null>;
}

export interface VisibleEnv {
  thread: EnvValueRecord[];
  user: EnvValueRecord[];
  instance: EnvValueRecord[];
}

export interface EnvStore {
  list(scope: EnvScope, ownerKey: string): Promise<EnvValueRecord[]>;
  /** The stored values a thread sees (its own, its user's when `userId` is set, the instance's), read together. */
  visible(threadId: string, userId: string | null): Promise<VisibleEnv>;
  set(scope: EnvScope, ownerKey: string, name: string, type: "text" | "secret", value: string): Promise<void>;
  delete(scope: EnvScope, ownerKey: string, name: string): Promise<boolean>;
}

export interface FileStore {
  write(
    threadId: string,
    path: string,
    data: Uint8Array,
    opts: { mimeType?: string | null; metadata?: Record<string, unknown> | null; sourceThreadId?: string; sourcePath?: string },
  ): Promise<FileRecordRow>;
  read(threadId: string, path: string): Promise<Uint8Array | null>;
  /**
   * The bytes in chunks of at most `chunkSize`, read from storage as they are consumed (null when the file is absent).
   * Optional: without it, callers chunk the result of `read`.
   */
  readStream?(threadId: string, path: string, chunkSize: number): Promise<AsyncIterable<Uint8Array> | null>;
  stat(threadId: string, path: string): Promise<FileRecordRow | null>;
  /** Entries whose path starts with `prefix` (a normalised folder path ending in `/`, or `/` for all). */
  list(threadId: string, prefix: string): Promise<FileRecordRow[]>;
  mkdir(threadId: string, path: string): Promise<FileRecordRow>;
  /** Delete one path (file or empty folder marker); returns whether it existed. */
  delete(threadId: string, path: string): Promise<boolean>;
}

export interface EffectStore {
  create(input: { threadId: string; name: string; args: Record<string, unknown>; runAt: Date }): Promise<ScheduledEffectRecord>;
  get(id: string): Promise<ScheduledEffectRecord | null>;
  list(threadId: string, filter?: { name?: string; status?: EffectStatus[] }): Promise<ScheduledEffectRecord[]>;
  update(id: string, patch: Partial<Pick<ScheduledEffectRecord, "status" | "attempts" | "lastError" | "runAt">>): Promise<ScheduledEffectRecord>;
}

export interface SubagentStore {
  create(entry: Omit<SubagentRecord, "updatedAt" | "reportedAt">): Promise<SubagentRecord>;
  get(childId: string): Promise<SubagentRecord | null>;
  byToolCall(parentId: string, toolCallId: string): Promise<SubagentRecord | null>;
  listByParent(parentId: string): Promise<SubagentRecord[]>;
  update(childId: string, patch: Partial<Pick<SubagentRecord, "status" | "reportedAt" | "toolCallId" | "blocking">>): Promise<SubagentRecord>;
}

/**
 * The runs of tool calls: each start of a call is counted before the tool runs, durably, so that a call started again
 * after a crash or restart knows it is a repeat.
 */
export interface ToolCallRunStore {
  /** Count one more start of the call (made by the assistant message `messageId`); returns the attempt, 1 the first time. */
  start(messageId: string, toolCallId: string): Promise<number>;
}

export interface VariableRequestStore {
  create(input: Omit<VariableRequestRecord, "id" | "status" | "createdAt">): Promise<VariableRequestRecord>;
  get(id: string): Promise<VariableRequestRecord | null>;
  fulfill(id: string): Promise<boolean>;
}

/** Tool calls held for a human decision. */
export interface ToolApprovalStore {
  /** Record a pending request; idempotent per call (returns the existing row when there is one). */
  create(input: Pick<ToolApprovalRecord, "threadId" | "messageId" | "toolCallId" | "toolName" | "args" | "expiresAt">): Promise<ToolApprovalRecord>;
  get(messageId: string, toolCallId: string): Promise<ToolApprovalRecord | null>;
  /** The requests of these threads (all statuses, or the ones given), oldest first. */
  listByThreads(threadIds: string[], statuses?: ToolApprovalStatus[]): Promise<ToolApprovalRecord[]>;
  /** Resolve a pending request; false when it was no longer pending. */
  decide(
    id: string,
    decision: { status: Exclude<ToolApprovalStatus, "pending">; decidedArgs?: Record<string, unknown> | null; note?: string | null; decidedBy?: string | null },
  ): Promise<boolean>;
}

/** Everything the runtime persists, grouped so a transaction can hand out the same set bound to one connection. */
export interface Stores {
  threads: ThreadStore;
  messages: MessageStore;
  queue: QueueStore;
  events: EventLog;
  llmLogs: LlmLogStore;
  work: WorkStore;
  env: EnvStore;
  files: FileStore;
  effects: EffectStore;
  subagents: SubagentStore;
  variableRequests: VariableRequestStore;
  toolCallRuns: ToolCallRunStore;
  approvals: ToolApprovalStore;
}

export interface TransactionOptions {
  /**
   * The threads it locks may be taken as this process last saw them (PostgreSQL: checked in the transaction instead
   * of read, so it waits for no answer before its commit). If another writer changed one meanwhile, nothing is
   * committed and it fails with `StaleThreadError`: the caller runs it again without this option. Where the database
   * is in process (SQLite) it changes nothing.
   */
  optimistic?: boolean;
  /**
   * The body takes or sets state outside the transaction (it must not run twice as it is). Where the database ends a
   * transaction for a deadlock or a serialization failure, which otherwise runs the body again, it then fails with
   * `StaleThreadError` instead, nothing committed: the caller gives back what the body took and runs it again.
   */
  once?: boolean;
}

export interface Persistence extends Stores {
  /** Run `fn` atomically: every write inside commits together or not at all. */
  transaction<T>(fn: (tx: Stores) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /**
   * Optional: run `fn` as a transaction whose commit is sent but not waited for. Resolves with `fn`'s value once the
   * commit has left for the database (it is stored even if this process dies next, unless it fails); `stored`
   * settles with the database's answer and rejects if nothing was stored. Where absent, `transaction` serves.
   */
  transactionSent?<T>(fn: (tx: Stores) => Promise<T>): Promise<{ value: T; stored: Promise<void> }>;
  /** The thread's activation ended: whatever the persistence keeps in memory for it (read caches) may go. */
  release?(threadId: string): void;
}
