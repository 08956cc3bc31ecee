import { ConflictError, NotFoundError } from "@/server/runtime/errors";
import type { App } from "../app-context";
import { configuredMode } from "./modes";

/**
 * `subagent_message` from the UI, as the parent would send it: the message is queued on a live resumable child
 * (on the side its config names), the parent's registry shows it running again, and the parent's feed announces it.
 * With implicit communication the child's next report reaches the parent as the usual queued message.
 */
export async function messageChild(app: App, input: { parentId: string; childId: string; message: string }) {
  const entry = await app.persistence.subagents.get(input.childId);
  if (!entry || entry.parentId !== input.parentId) {
    throw new NotFoundError(`Thread ${input.childId} is not a subagent of ${input.parentId}`);
  }
  if (!entry.resumable) throw new ConflictError(`Subagent ${input.childId} is not resumable: it cannot receive messages`);
  const child = await app.runtime.getThread(input.childId);
  if (entry.status === "terminated" || child.status === "terminated") {
    throw new ConflictError(`Subagent ${input.childId} is terminated and cannot receive messages`);
  }
  const parent = await app.runtime.getThread(input.parentId);
  const mode = configuredMode(app.registry.current(), parent.agentId, child.agentId);
  const { messageId } = await app.runtime.postMessage(input.childId, {
    content: input.message,
    role: mode.receives === "side_b" ? "assistant" : "user",
    metadata: { from_parent: input.parentId, source: "inspector" },
  });
  const events = app.runtime.deps.events;
  await events.commit(async (tx, emit) => {
    if (entry.status !== "running") await tx.subagents.update(input.childId, { status: "running" });
    await emit(input.parentId, {
      type: "subagent.updated",
      childId: input.childId,
      name: entry.name,
      status: "running",
      change: "messaged",
    });
  });
  return { messageId };
}
