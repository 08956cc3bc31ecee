import type { Message, MessageUpdates } from "@/server/spec";
import { redactDeep } from "../env/redact";
import { threadSecrets } from "./thread-secrets";
import type { Emit } from "../events/publisher";
import { runHooks } from "./hook-runner";
import { newId, nowMicros } from "../ids";
import type { MessageRecord, NewMessage, Stores } from "../ports";
import { hookContext } from "./scope";
import type { StateScope } from "./deps";
import { toSpecMessage } from "./to-spec";

/**
 * Store a message the way every message is stored: `before_create_message` hooks may transform it, then it is
 * appended and announced in one transaction (with `extra` writes, e.g. a queue entry marked delivered), then
 * `after_create_message` hooks run. The thread's secret values are masked in what is stored (whoever wrote it: a tool
 * through injectMessage, a hook, a queued message).
 */
export async function createMessage(
  scope: StateScope,
  input: NewMessage,
  extra?: (tx: Stores, msg: MessageRecord, emit: Emit) => Promise<void>,
  opts: CommitOptions = {},
): Promise<MessageRecord> {
  return commitMessage(scope, await prepareMessage(scope, input), extra, opts);
}

export interface CommitOptions {
  /**
   * Checked in the transaction: a message it returns is returned instead (nothing is stored). Given the id of the
   * message being stored, it must not return that one: without `before`, the check and the append are asked for
   * together (one round trip where the database pipelines them), and a message found rolls the append back.
   */
  existing?: (tx: Stores, storing: string) => Promise<MessageRecord | null>;
  /** Writes that precede the message in its transaction (and their events, its `message.created`). */
  before?: (tx: Stores, emit: Emit) => Promise<void>;
  /**
   * Writes sent with the message's append, after `before` (one round trip where the database pipelines them): started
   * just before the append, so their statements precede it; their events precede its `message.created`.
   */
  alongside?: (tx: Stores, emit: Emit) => Promise<void>;
  /** The transaction may take the thread as this process last saw it (`TransactionOptions.optimistic`). */
  optimistic?: boolean;
  /** The callbacks must not run twice (`TransactionOptions.once`). */
  once?: boolean;
}

/** A message as it will be stored: id and time set, `before_create_message` hooks applied, secret values masked. */
export type PreparedMessage = NewMessage & { id: string; createdAt: number };

export async function prepareMessage(scope: StateScope, input: NewMessage): Promise<PreparedMessage> {
  const hc = hookContext(scope);
  let record: NewMessage = { ...input, id: input.id ?? newId(), createdAt: input.createdAt ?? nowMicros() };
  if (hc) {
    const draft = toSpecMessage({ ...record, threadId: scope.thread.id, seq: 0 } as MessageRecord);
    const out = await runHooks(hc, "before_create_message", draft, (exec, state, value) => Promise.resolve(exec(state, value)), acceptMessage);
    record = applySpecMessage(record, out);
  }
  return (await redactRecord(scope, record)) as PreparedMessage;
}

/** Store a prepared message in its transaction with its `message.created` (and `extra`), then `after_create_message`. */
export async function commitMessage(
  scope: StateScope,
  record: PreparedMessage,
  extra?: (tx: Stores, msg: MessageRecord, emit: Emit) => Promise<void>,
  { existing, before, alongside, optimistic, once }: CommitOptions = {},
): Promise<MessageRecord> {
  const hc = hookContext(scope);
  let stored = true;
  const msg = await scope.deps.events
    .commit(async (tx, emit) => {
      if (existing && !before && !alongside) return appendChecked(tx, emit, scope.thread.id, record, existing, extra);
      const found = existing ? await existing(tx, record.id) : null;
      if (found) {
        stored = false;
        return found;
      }
      if (before) await before(tx, emit);
      const m = alongside ? await appendAlongside(tx, emit, scope.thread.id, record, alongside) : await tx.messages.append(scope.thread.id, record);
      await emit(scope.thread.id, { type: "message.created", message: toSpecMessage(m) });
      if (extra) await extra(tx, m, emit);
      return m;
    }, optimistic || once ? { optimistic, once } : undefined)
    .catch((err: unknown) => {
      if (!(err instanceof FoundInstead)) throw err;
      stored = false;
      return err.found;
    });
  if (hc && stored) await runHooks(hc, "after_create_message", toSpecMessage(msg), async (exec, state, value) => void (await exec(state, value)));
  return msg;
}

/**
 * Append a message with its `message.created` (and `extra`) in the caller's transaction, its `existing` check asked
 * for with the append (one round trip where the database pipelines them): a message found fails the transaction with
 * `FoundInstead`. No hooks run here (`commitMessage` runs them around its own transaction).
 */
export async function appendChecked(
  tx: Stores,
  emit: Emit,
  threadId: string,
  record: PreparedMessage,
  existing: NonNullable<CommitOptions["existing"]>,
  extra?: (tx: Stores, msg: MessageRecord, emit: Emit) => Promise<void>,
): Promise<MessageRecord> {
  const [found, appended] = await Promise.all([
    existing(tx, record.id),
    tx.messages.append(threadId, record).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
  ]);
  if (found) throw new FoundInstead(found);
  if ("error" in appended) throw appended.error;
  const m = appended.value;
  await emit(threadId, { type: "message.created", message: toSpecMessage(m) });
  if (extra) await extra(tx, m, emit);
  return m;
}

/** Start `alongside`, then the append (same turn of the event loop); emit `alongside`'s events once both are done. */
async function appendAlongside(
  tx: Stores,
  emit: Emit,
  threadId: string,
  record: PreparedMessage,
  alongside: NonNullable<CommitOptions["alongside"]>,
): Promise<MessageRecord> {
  const held: Parameters<Emit>[] = [];
  const [, m] = await Promise.all([alongside(tx, async (...e) => void held.push(e)), tx.messages.append(threadId, record)]);
  for (const e of held) await emit(...e);
  return m;
}

/** The message found by `existing` while ours was appended: the transaction rolls back, and the found one is returned. */
export class FoundInstead extends Error {
  constructor(readonly found: MessageRecord) {
    super("the message was stored already");
  }
}

/**
 * Update a message: `before_update_message` hooks may change the updates, `after_update_message` hooks see the result.
 * Secret values are masked in the stored update.
 */
export async function updateMessage(scope: StateScope, id: string, updates: MessageUpdates): Promise<MessageRecord> {
  const hc = hookContext(scope);
  const hooked = await runHooks(hc, "before_update_message", updates, (exec, state, value) => Promise.resolve(exec(state, id, value)), (out) =>
    out && typeof out === "object" ? (out as MessageUpdates) : undefined,
  );
  const final = redactDeep(hooked, await threadSecrets(scope.deps, scope.thread));
  const rec = await scope.deps.events.commit(async (tx, emit) => {
    const r = await tx.messages.update(id, {
      ...(final.content !== undefined ? { content: final.content } : {}),
      ...(final.name !== undefined ? { name: final.name } : {}),
      ...(final.tool_status !== undefined ? { toolStatus: final.tool_status } : {}),
      ...(final.reasoning_content !== undefined ? { reasoningContent: final.reasoning_content } : {}),
      ...(final.attachments !== undefined ? { attachments: final.attachments.map((a) => ({ path: a.path, name: a.name, mimeType: a.mimeType, size: a.size })) } : {}),
      ...(final.silent !== undefined ? { silent: final.silent } : {}),
      ...(final.metadata !== undefined ? { metadata: final.metadata } : {}),
    });
    await emit(scope.thread.id, { type: "message.updated", message: toSpecMessage(r) });
    return r;
  });
  if (hc) await runHooks(hc, "after_update_message", toSpecMessage(rec), async (exec, state, value) => void (await exec(state, value)));
  return rec;
}

async function redactRecord(scope: StateScope, record: NewMessage): Promise<NewMessage> {
  const secrets = await threadSecrets(scope.deps, scope.thread);
  if (secrets.length === 0) return record;
  const { content, name, toolCalls, reasoningContent, metadata } = record;
  return { ...record, ...redactDeep({ content, name, toolCalls, reasoningContent, metadata }, secrets) };
}

function acceptMessage(out: unknown, value: Message): Message | undefined {
  if (!out || typeof out !== "object") return undefined;
  const m = out as Message;
  if (m.id !== value.id || m.role !== value.role) throw new Error("before_create_message must keep the message's id and role");
  return m;
}

/** Take what a hook may change (content, name, tool calls, reasoning, silent, metadata) from its output. */
function applySpecMessage(record: NewMessage, m: Message): NewMessage {
  return {
    ...record,
    content: m.content,
    name: m.name ?? null,
    toolCalls: m.tool_calls ?? null,
    reasoningContent: m.reasoning_content ?? null,
    silent: m.silent ?? record.silent,
    metadata: (m.metadata as Record<string, unknown> | null | undefined) ?? null,
  };
}
