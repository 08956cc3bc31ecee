import { NotFoundError, ValidationError } from "../errors";
import type { RuntimeDeps } from "../kernel/deps";
import { spawnChild, type SpawnRequest } from "./spawn";

/** `GET /threads/{parent}/variables/{request_id}`: the required and missing scoped variables of a deferred spawn. */
export async function getVariableRequest(deps: RuntimeDeps, parentId: string, requestId: string) {
  const r = await deps.persistence.variableRequests.get(requestId);
  if (!r || r.parentThreadId !== parentId || r.status !== "open") throw new NotFoundError(`Variable request ${requestId} not found (or already fulfilled)`);
  const defs = deps.definitions();
  const declared = new Map(defs.graphVariables(r.agent).map((v) => [v.name, v]));
  return {
    request_id: r.id,
    agent: r.agent,
    required: r.required,
    missing: r.missing,
    variables: r.required.map((name) => ({ name, type: declared.get(name)?.type ?? "text", required: true, scoped: true })),
  };
}

/**
 * `POST /threads/{parent}/variables/{request_id}` with `{env}`: store the values on the child and boot it with the
 * original creation payload (spec §7.8). The request is then gone: a second POST is 404. It is marked fulfilled only
 * after the child exists; the spawn is idempotent per request, so a crash in between (or a spawn that fails
 * validation, a 400) leaves the request open and a later POST boots the same child.
 */
export async function fulfillVariableRequest(deps: RuntimeDeps, parentId: string, requestId: string, env: Record<string, string>) {
  const r = await deps.persistence.variableRequests.get(requestId);
  if (!r || r.parentThreadId !== parentId || r.status !== "open") throw new NotFoundError(`Variable request ${requestId} not found (or already fulfilled)`);
  const stillMissing = r.missing.filter((n) => typeof env[n] !== "string" || env[n] === "");
  if (stillMissing.length > 0) {
    throw new ValidationError(`Missing values for ${stillMissing.join(", ")}`, {
      missing: stillMissing,
      fields: stillMissing.map((n) => ({ path: `env.${n}`, message: "required" })),
    });
  }
  const parent = await deps.persistence.threads.get(parentId);
  if (!parent || parent.status === "terminated") throw new NotFoundError(`Thread ${parentId} not found or terminated`);
  const payload = r.payload as unknown as Omit<SpawnRequest, "parent">;
  const result = await spawnChild(deps, {
    agentName: payload.agentName,
    toolName: payload.toolName,
    resumable: payload.resumable,
    message: payload.message,
    messageRole: payload.messageRole,
    attachments: payload.attachments ?? [],
    threadName: payload.threadName,
    parent,
    toolCallId: `bootstrap:${requestId}`,
    spawnGroupId: null,
    // The model's call was already answered (with the error); the result arrives as a queued message.
    blocking: false,
    scopedEnv: { ...(payload.scopedEnv ?? {}), ...env },
  });
  if (!result.ok) throw new ValidationError(`Still missing scoped variables: ${result.missing.join(", ")}`, { missing: result.missing });
  if (!(await deps.persistence.variableRequests.fulfill(requestId)) && result.existed) {
    throw new NotFoundError(`Variable request ${requestId} was already fulfilled`);
  }
  return { request_id: requestId, reference: result.child.id, thread: result.child };
}
