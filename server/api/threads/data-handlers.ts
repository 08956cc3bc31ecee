import { redactDeep } from "@/server/runtime/env/redact";
import { threadSecrets } from "@/server/runtime/kernel/thread-secrets";
import { NotFoundError } from "@/server/runtime/errors";
import { guessMimeType, normalizePath } from "@/server/runtime/files/paths";
import type { App } from "../app-context";
import { ApiError } from "../errors";
import type { RouteContext } from "../rest/router";
import { isInlineSafe, mimeEssence } from "./mime-type";

type Ctx = RouteContext<App>;

/** `GET /api/threads/:id/logs`: one row per LLM request (secrets are redacted before they are stored). */
export async function logsHandler({ params, url, app }: Ctx): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  const limit = Math.min(1000, Number(url.searchParams.get("limit") ?? 200) || 200);
  const offset = Math.max(0, Number(url.searchParams.get("offset") ?? 0) || 0);
  const logs = await app.persistence.llmLogs.list(thread.id, { limit, offset });
  return Response.json({
    logs: logs.map((l) => ({
      id: l.id,
      thread_id: l.threadId,
      message_id: l.messageId,
      side: l.side,
      step: l.step,
      model_name: l.modelName,
      model: l.modelId,
      provider: l.provider,
      attempt: l.attempt,
      status: l.status,
      error: l.error,
      input_tokens: l.inputTokens,
      output_tokens: l.outputTokens,
      cached_tokens: l.cachedTokens,
      cost_usd: l.cost,
      latency_ms: l.latencyMs,
      ttft_ms: l.ttftMs,
      started_at: l.startedAt.toISOString(),
      finished_at: l.finishedAt?.toISOString() ?? null,
      request: l.request,
      response: l.response,
    })),
  });
}

/** `GET /api/threads/:id/cost`: tokens and cost of the thread and of its whole subtree. */
export async function costHandler({ params, app }: Ctx): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  const ids = [thread.id];
  for (let i = 0; i < ids.length; i++) {
    const { threads } = await app.persistence.threads.list({ parentId: ids[i]!, limit: 10_000 });
    ids.push(...threads.map((t) => t.id));
  }
  const own = await app.persistence.llmLogs.totals([thread.id]);
  const subtree = await app.persistence.llmLogs.totals(ids);
  return Response.json({ thread_id: thread.id, own, subtree: { ...subtree, threads: ids.length } });
}

const MAX_UPLOAD = 25 * 1024 * 1024;

/** `GET/POST/DELETE /api/threads/:id/fs/*path`: the thread's files (paths confined to its filesystem). */
export async function filesHandler({ params, request, app }: Ctx): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  const path = normalizePath(`/${params.path ?? ""}`);
  const files = app.persistence.files;
  if (request.method === "GET") {
    const stat = await files.stat(thread.id, path);
    // Folders exist explicitly (mkdir) or implicitly (a file below them).
    const entries = stat && !stat.isDirectory ? [] : await files.list(thread.id, path === "/" ? "/" : `${path}/`);
    if (path === "/" || stat?.isDirectory || entries.length > 0) {
      return Response.json({
        path,
        entries: entries.map((e) => ({ path: e.path, type: e.isDirectory ? "directory" : "file", size: e.size, mime_type: e.mimeType, source_thread_id: e.sourceThreadId, source_path: e.sourcePath, updated_at: e.updatedAt.toISOString() })),
      });
    }
    const data = stat ? await files.read(thread.id, path) : null;
    if (!stat || !data) throw new NotFoundError(`File ${path} not found in thread ${thread.id}`);
    const stored = stat.mimeType ?? guessMimeType(path);
    // A type that is not exactly one well-formed MIME type is served as opaque bytes.
    const type = mimeEssence(stored) ? stored : "application/octet-stream";
    // Thread files are untrusted (models and tools write them): never let one run as the app's origin.
    const inlineSafe = isInlineSafe(type);
    return new Response(data as BodyInit, {
      headers: {
        "content-type": type,
        "content-length": String(data.byteLength),
        "x-content-type-options": "nosniff",
        "content-security-policy": "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
        ...(inlineSafe ? {} : { "content-disposition": `attachment; filename="${encodeURIComponent(path.split("/").pop() ?? "file")}"` }),
      },
    });
  }
  if (request.method === "POST") {
    if (thread.status === "terminated") throw new ApiError(409, "CONFLICT", "The thread is terminated");
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > MAX_UPLOAD) throw new ApiError(413, "PAYLOAD_TOO_LARGE", `Files are limited to ${MAX_UPLOAD / 1024 / 1024} MiB`);
    if (path === "/") throw new ApiError(400, "BAD_REQUEST", "A file path is required, e.g. /attachments/notes.txt");
    const type = mimeEssence(request.headers.get("content-type"));
    const row = await files.write(thread.id, path, bytes, { mimeType: type && type !== "application/octet-stream" ? type : guessMimeType(path) });
    return Response.json({ path: row.path, size: row.size, mime_type: row.mimeType }, { status: 201 });
  }
  const existed = await files.delete(thread.id, path);
  if (!existed) throw new NotFoundError(`File ${path} not found in thread ${thread.id}`);
  return new Response(null, { status: 204 });
}

/**
 * `GET /api/threads/:id/effects`: the thread's scheduled effects with status, attempts and last error. The effect
 * runs with its real arguments; what is shown has the thread's secret values masked.
 */
export async function effectsHandler({ params, app }: Ctx): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  const effects = await app.persistence.effects.list(thread.id);
  const secrets = await threadSecrets(app.runtime.deps, thread);
  return Response.json({
    effects: effects.map((e) => ({
      id: e.id,
      name: e.name,
      args: redactDeep(e.args, secrets),
      status: e.status,
      attempts: e.attempts,
      last_error: e.lastError === null ? null : redactDeep(e.lastError, secrets),
      run_at: e.runAt.toISOString(),
      created_at: e.createdAt.toISOString(),
      updated_at: e.updatedAt.toISOString(),
    })),
  });
}
