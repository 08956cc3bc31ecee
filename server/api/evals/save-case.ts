import fs from "node:fs/promises";
import path from "node:path";
import { ConflictError, NotFoundError, ValidationError } from "@/server/runtime/errors";
import { evalCaseSchema, type EvalCase } from "@/server/spec";
import type { App } from "../app-context";
import { ApiError } from "../errors";

export interface SaveCaseInput {
  evalName: string;
  threadId: string;
  /** The case id (default `thread-<first 8 characters of the thread id>`). */
  id?: string;
  /** The expected reply (default: the thread's reply to its last user message, when it has one). */
  expected?: string;
}

/**
 * "Save this thread as a case": the thread's visible conversation up to its last user message becomes a case of the
 * eval (a single message as `input`), with the reply that followed as `expected` unless one is given, appended as one
 * line to the eval's JSONL cases file. Refused when definitions are read-only, when the eval keeps its cases inline
 * or in CSV, when the thread is of another agent, and when the id is taken.
 */
export async function saveThreadAsCase(app: App, input: SaveCaseInput): Promise<{ case: EvalCase; file: string }> {
  const snapshot = app.registry.current();
  const ev = snapshot.evals.get(input.evalName);
  if (!ev) throw new NotFoundError(`No eval named "${input.evalName}"`);
  if (app.config.DEFINITIONS_READONLY) throw new ApiError(403, "FORBIDDEN", "Definitions are read-only here (DEFINITIONS_READONLY=1): cases cannot be added from the app");
  if (!ev.casesFile?.endsWith(".jsonl"))
    throw new ConflictError(`Eval "${ev.name}" keeps its cases ${ev.casesFile ? `in ${ev.casesFile}` : `inline in ${ev.file}`}; point \`cases\` at a .jsonl file next to it to save threads as cases`);
  const thread = await app.runtime.getThread(input.threadId);
  if (thread.rootAgentId !== ev.definition.agent)
    throw new ValidationError(`thread_id: the thread is a conversation with "${thread.rootAgentId}", but eval "${ev.name}" runs "${ev.definition.agent}"`, [{ path: "thread_id", message: `a thread of agent "${ev.definition.agent}" is needed` }]);
  const messages = (await app.persistence.messages.list(thread.id, { includeSilent: false }))
    .filter((m): m is typeof m & { role: "user" | "assistant"; content: string } => (m.role === "user" || m.role === "assistant") && !!m.content && !m.toolCalls?.length);
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  if (lastUser < 0) throw new ValidationError("thread_id: the thread has no user message to replay", [{ path: "thread_id", message: "no user message" }]);
  const convo = messages.slice(0, lastUser + 1).map((m) => ({ role: m.role, content: m.content }));
  const reply = messages.slice(lastUser + 1).find((m) => m.role === "assistant")?.content;
  const expected = input.expected ?? reply;
  const id = input.id ?? `thread-${thread.id.slice(0, 8)}`;
  if (ev.cases.some((c) => c.id === id))
    throw new ConflictError(`Eval "${ev.name}" already has a case "${id}"; give the new case another id`, [{ path: "id", message: "taken" }]);
  const c: EvalCase = {
    id,
    ...(convo.length === 1 ? { input: convo[0]!.content } : { messages: convo }),
    ...(expected !== undefined ? { expected } : {}),
    metadata: { source_thread: thread.id },
  };
  evalCaseSchema.parse(c);
  const abs = path.join(snapshot.dir, ev.casesFile);
  const before = await fs.readFile(abs, "utf8");
  await fs.appendFile(abs, `${before === "" || before.endsWith("\n") ? "" : "\n"}${JSON.stringify(c)}\n`);
  await app.registry.reload();
  return { case: c, file: ev.casesFile };
}
