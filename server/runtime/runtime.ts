import type { AttachmentInput, ThreadState } from "@/server/spec";
import type { Definitions } from "./definitions";
import type { SecretBox } from "./env/secret-box";
import { ConflictError, NotFoundError, ValidationError } from "./errors";
import { EventPublisher } from "./events/publisher";
import { resolveAttachments } from "./files/attachments";
import type { LlmClient } from "./llm/types";
import type { EventBus, McpClientPort, Persistence, ThreadRecord } from "./ports";
import { AbortRegistry, type AbortReason } from "./kernel/abort-registry";
import { bareScope } from "./kernel/scope";
import { redactForThread } from "./kernel/thread-secrets";
import { runtimeCapabilities } from "./thread/capabilities";
import { createThread, type CreateThreadInput } from "./thread/create-thread";
import type { RuntimeDeps, RuntimeSettings } from "./kernel/deps";
import { runWork } from "./thread/run-work";
import { requestContinue, requestStop, waitForStopApplied } from "./thread/stop-request";
import { Scheduler } from "./thread/scheduler";
import { enqueueMessage, terminateThread } from "./thread/thread-ops";
import { forkThread, type ForkInput } from "./thread/fork-thread";
import { depsForThread } from "./kernel/thread-definitions";
import { replayRequest, type ReplayInput, type ReplayResult } from "./thread/replay-request";
import { deleteThreadMessage } from "./thread/delete-message";
import { fulfillVariableRequest, getVariableRequest } from "./subagents/bootstrap";
import { decideApproval, listApprovals, type ApprovalDecision } from "./tools/approval-requests";
import type { ToolApprovalStatus } from "./ports";
import { logContext } from "./tracing";

export interface RuntimeOptions {
  persistence: Persistence;
  bus: EventBus;
  llm: LlmClient;
  /** The MCP client (server/mcp); without one, MCP tools answer with a clear tool error. */
  mcp?: McpClientPort;
  definitions(): Definitions;
  /** Builds the definitions of an unsaved editor draft ("Try it" threads); see `RuntimeDeps.draftDefinitions`. */
  draftDefinitions?: RuntimeDeps["draftDefinitions"];
  secrets: SecretBox | null;
  settings: RuntimeSettings;
  workerId: string;
  /** Run threads in this process (false: API only; work waits for a worker process). */
  runWorkers: boolean;
  concurrency?: number;
  /**
   * Whether this process is the only one running threads (the embedded default: every claim left by a previous run
   * is released at start). False when several worker processes share the database and its job queue.
   */
  exclusiveWork?: boolean;
  /** How long a claim on a thread lasts without a heartbeat (default 30 s). */
  leaseMs?: number;
  /** Fallback poll for due work (default 1 s). */
  pollMs?: number;
  /**
   * Tell the other processes to abort a thread's activation (a stop or terminate issued here for a thread that runs
   * elsewhere); they call `abortRemote`. Absent with one process.
   */
  broadcastAbort?: (threadId: string, reason: AbortReason) => void;
  /**
   * Tell the runtime that runs this process's threads elsewhere that work was queued here (the SQLite runtime thread;
   * a PostgreSQL queue notifies its workers itself). Called after the work item is committed.
   */
  notifyWork?: () => void;
  /** How long `stop` waits for the stop to be applied before answering with the request still pending. */
  stopWaitMs?: number;
  /**
   * How often this process reads, in one statement for all the threads it runs, whether a stop or terminate was
   * issued elsewhere (default: 1 s behind a broadcast, 0.5 s without one).
   */
  stopPollMs?: number;
  log?: RuntimeDeps["log"];
}

export interface PostMessageInput {
  content: string;
  role?: "user" | "assistant";
  attachments?: AttachmentInput[];
  silent?: boolean;
  metadata?: Record<string, unknown>;
}

/** The engine's public surface: the API, tRPC and tests call these; the scheduler runs the threads. */
export class Runtime {
  readonly deps: RuntimeDeps;
  private readonly scheduler: Scheduler;

  constructor(private readonly opts: RuntimeOptions) {
    const write = opts.log ?? ((level, message, data) => (level === "debug" ? undefined : console[level === "info" ? "log" : level](`[runtime] ${message}`, data ?? "")));
    // A record about a thread carries the thread's activation in progress (and its span when traced).
    const log: RuntimeDeps["log"] = (level, message, data) => {
      const threadId = typeof data?.threadId === "string" ? data.threadId : undefined;
      write(level, message, threadId ? { ...data, ...logContext(threadId) } : data);
    };
    const events = new EventPublisher(opts.persistence, opts.bus);
    // With a broadcast (PostgreSQL) the poll is only its fallback; without (SQLite) it is how a stop issued by an
    // API-only process reaches this one.
    const aborts = new AbortRegistry({
      broadcast: opts.broadcastAbort,
      pendingAborts: (ids) => opts.persistence.threads.pendingAborts(ids),
      pollMs: opts.stopPollMs ?? (opts.broadcastAbort ? 1000 : 500),
    });
    this.deps = {
      persistence: opts.persistence,
      events,
      llm: opts.llm,
      ...(opts.mcp ? { mcp: opts.mcp } : {}),
      definitions: opts.definitions,
      ...(opts.draftDefinitions ? { draftDefinitions: opts.draftDefinitions } : {}),
      secrets: opts.secrets,
      settings: opts.settings,
      aborts,
      capabilities: runtimeCapabilities(),
      log,
      schedule: async (threadId) => {
        await this.scheduler.schedule(threadId);
        opts.notifyWork?.();
      },
      wake: () => {
        this.scheduler.wake();
        opts.notifyWork?.();
      },
    };
    this.scheduler = new Scheduler({
      persistence: opts.persistence,
      run: (item) => runWork(this.deps, item),
      workerId: opts.workerId,
      concurrency: opts.concurrency,
      exclusive: opts.exclusiveWork ?? true,
      leaseMs: opts.leaseMs,
      pollMs: opts.pollMs,
      log: (level, message, data) => log(level, message, data),
    });
  }

  async start(): Promise<void> {
    if (this.opts.runWorkers) await this.scheduler.start();
  }

  async close(): Promise<void> {
    await this.scheduler.stop();
    this.deps.aborts.close();
  }

  /** Another process stopped or terminated a thread: abort its activation if it runs here. */
  abortRemote(threadId: string, reason: AbortReason): boolean {
    return this.deps.aborts.abortHere(threadId, reason);
  }

  async createThread(input: CreateThreadInput): Promise<ThreadRecord> {
    const thread = await createThread(this.deps, input);
    if (thread.status === "running") await this.deps.schedule(thread.id);
    return thread;
  }

  async getThread(threadId: string): Promise<ThreadRecord> {
    const t = await this.opts.persistence.threads.get(threadId);
    if (!t) throw new NotFoundError(`Thread ${threadId} not found`);
    return t;
  }

  /** The `ThreadState` of a thread outside any step (thread endpoints and controllers use it). */
  async threadState(threadId: string): Promise<ThreadState> {
    const thread = await this.getThread(threadId);
    return this.deps.capabilities.threadState(bareScope(depsForThreadOrSaved(this.deps, thread), thread));
  }

  /** Delete a message of an idle thread (an assistant message with the results of its tool calls). */
  async deleteMessage(threadId: string, messageId: string): Promise<{ deleted: string[] }> {
    return deleteThreadMessage(this.deps, threadId, messageId);
  }

  /** Send a logged model request again (as it was or edited, to the same or another model); the thread is untouched. */
  async replayRequest(threadId: string, logId: string, input: ReplayInput, signal?: AbortSignal): Promise<ReplayResult> {
    const thread = await this.getThread(threadId);
    return replayRequest(depsForThreadOrSaved(this.deps, thread), thread, logId, input, signal);
  }

  /** `value` with the thread's secret values masked (error messages of endpoints, before they leave the server). */
  redactForThread<T>(threadId: string, value: T): Promise<T> {
    return redactForThread(this.deps, threadId, value);
  }

  /** Post a message: queued durably, delivered before the next step, or starting a turn when the thread waits. */
  async postMessage(threadId: string, input: PostMessageInput): Promise<{ messageId: string }> {
    const thread = await this.getThread(threadId);
    if (thread.status === "terminated") throw new ConflictError(`Thread ${threadId} is terminated and accepts no messages`);
    if (input.content.trim() === "" && (input.attachments ?? []).length === 0) {
      throw new ValidationError("content: a message needs text or attachments", [{ path: "content", message: "must not be empty" }]);
    }
    const attachments = await resolveAttachments(this.opts.persistence.files, threadId, input.attachments);
    const q = await enqueueMessage(this.deps, threadId, {
      role: input.role ?? "user",
      content: input.content,
      attachments,
      silent: input.silent,
      metadata: input.metadata ?? null,
    });
    return { messageId: q.id };
  }

  /**
   * Stop the thread (`user_stop`; dangling tool calls get an error result). The request is written to the database
   * first, so it holds across processes and restarts; the in-flight step here is aborted at once. Answers once the
   * stop was applied, or after `stopWaitMs` with `stopRequestedAt` still set (e.g. a tool that ignores the abort
   * signal is still running; the stop is applied as soon as it returns).
   */
  async stop(threadId: string): Promise<ThreadRecord> {
    const { thread, requested } = await requestStop(this.deps, threadId);
    if (!requested) return thread;
    return waitForStopApplied(this.deps, threadId, this.opts.stopWaitMs ?? 2000);
  }

  /** Run on without a new message: the paused (or last) side takes another turn. A no-op on a running thread. */
  async continue(threadId: string): Promise<ThreadRecord> {
    return (await this.requestContinue(threadId)).thread;
  }

  /** As `continue`, telling whether a turn was started (false: the thread was already running). */
  requestContinue(threadId: string): Promise<{ thread: ThreadRecord; started: boolean }> {
    return requestContinue(this.deps, threadId);
  }

  getVariableRequest(parentId: string, requestId: string) {
    return getVariableRequest(this.deps, parentId, requestId);
  }

  fulfillVariableRequest(parentId: string, requestId: string, env: Record<string, string>) {
    return fulfillVariableRequest(this.deps, parentId, requestId, env);
  }

  /** Fork the thread at one of its messages (optionally edited): a new thread; the original is never touched. */
  fork(threadId: string, input: ForkInput): Promise<ThreadRecord> {
    return forkThread(this.deps, threadId, input);
  }

  /** Approval requests of the thread and its descendants (pending by default), each with the path to its thread. */
  listApprovals(threadId: string, statuses?: ToolApprovalStatus[] | null) {
    return listApprovals(this.deps, threadId, statuses);
  }

  /** Approve or deny a pending tool call of the thread or a descendant; the calling thread then runs on. */
  decideApproval(threadId: string, toolCallId: string, decision: ApprovalDecision) {
    return decideApproval(this.deps, threadId, toolCallId, decision);
  }

  async terminate(threadId: string): Promise<ThreadRecord> {
    await terminateThread(this.deps, threadId);
    await this.waitForActivation(threadId);
    return this.getThread(threadId);
  }

  private async waitForActivation(threadId: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.deps.aborts.isRunning(threadId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }
}

/** A draft thread's deps outside its activations (its state, a replay); the saved definitions when the draft no longer builds. */
function depsForThreadOrSaved(deps: RuntimeDeps, thread: ThreadRecord): RuntimeDeps {
  try {
    return depsForThread(deps, thread);
  } catch {
    return deps;
  }
}
