import type { Emit } from "../events/publisher";
import { resolveAttachments } from "../files/attachments";
import type { StateScope } from "../kernel/deps";
import { appendChecked, commitMessage, FoundInstead, prepareMessage, type PreparedMessage } from "../kernel/message-writer";
import { resultMetadata, resultText } from "../kernel/tool-call-context";
import type { MessageRecord, Stores, ToolCallRecord } from "../ports";
import type { ToolResult } from "@/server/spec";

/** Store the tool message for a call and announce it (the arguments of `prepareResult`). */
export async function storeResult(...args: Parameters<typeof prepareResult>): Promise<void> {
  await (await prepareResult(...args)).store();
}

/**
 * A tool message ready to store (hooks applied, secrets masked) but not stored yet: the next step's request can carry
 * it while `store` writes it. `store` runs its transaction once, however often it is called.
 */
export interface UnstoredResult {
  message: PreparedMessage;
  store(): Promise<void>;
  /**
   * Its writes and events in the caller's transaction instead, with its check (no hooks run: only a thread without
   * hooks carries a result). A result of the call found stored fails that transaction with `ResultStoredElsewhere`.
   * Once the transaction committed, `committed()`: `store` then does nothing. If it failed, `store` still stores it.
   */
  writeIn(tx: Stores, emit: Emit): Promise<void>;
  committed(): void;
}

/** The call's result was found stored by another writer: the transaction that was to store it rolls back. */
export class ResultStoredElsewhere extends Error {
  constructor() {
    super("the tool call's result was stored by another writer");
  }
}

/** `attempt`: the run of the call that produced the result, if it ran. */
export async function prepareResult(
  scope: StateScope,
  call: ToolCallRecord,
  result: ToolResult,
  durationMs: number,
  attempt?: number,
  /** Kept beside the result's own metadata (an approval decision). */
  extraMetadata?: Record<string, unknown> | null,
): Promise<UnstoredResult> {
  // A call has one result. Another writer may have stored it meanwhile: a blocking child's report answers the call
  // in the child's transaction, possibly while this thread re-runs the call after a restart. Checked with the thread
  // locked (the report locks it too), among the messages after the call's own.
  const after = (scope as { assistantMessage?: MessageRecord }).assistantMessage?.seq ?? 0;
  const existing = async (tx: Stores, storing: string) => {
    await tx.threads.lock(scope.thread.id);
    const later = await tx.messages.list(scope.thread.id, { afterSeq: after, includeSilent: true });
    return later.find((m) => m.role === "tool" && m.toolCallId === call.id && m.id !== storing) ?? null;
  };
  const message = await prepareMessage(scope, {
    role: "tool",
    content: resultText(result),
    name: call.function.name,
    toolCalls: null,
    toolCallId: call.id,
    toolStatus: result.status,
    reasoningContent: null,
    // Files a successful tool returned are stored in the thread and attached to its tool message.
    attachments:
      result.status === "success" && result.attachments?.length
        ? await resolveAttachments(scope.deps.persistence.files, scope.thread.id, result.attachments)
        : null,
    silent: false,
    depth: 0,
    side: scope.side,
    metadata: extraMetadata ? { ...resultMetadata(result), ...extraMetadata } : resultMetadata(result),
    subagentId: null,
  });
  const completed = async (_tx: Stores, msg: MessageRecord, emit: Emit) => {
    await emit(scope.thread.id, {
      type: "tool.completed",
      toolCallId: call.id,
      name: call.function.name,
      status: result.status,
      durationMs: Math.round(durationMs),
      messageId: msg.id,
      ...(attempt !== undefined ? { attempt } : {}),
    });
  };
  let stored: Promise<void> | null = null;
  return {
    message,
    store: () => (stored ??= commitMessage(scope, message, completed, { existing }).then(() => undefined)),
    writeIn: (tx, emit) =>
      appendChecked(tx, emit, scope.thread.id, message, existing, completed).then(
        () => undefined,
        (err: unknown) => {
          throw err instanceof FoundInstead ? new ResultStoredElsewhere() : err;
        },
      ),
    committed: () => {
      stored ??= Promise.resolve();
    },
  };
}
