import { z } from "zod";
import { toRegistryEntry } from "@/server/runtime/state/subagent-members";
import type { App } from "../app-context";
import { readJson, type RouteContext } from "../rest/router";

type Ctx = RouteContext<App>;

/** `GET /api/threads/:id/subagents`: the child registry (resumable and non-resumable children). */
export async function subagentsHandler({ params, app }: Ctx): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  const entries = await app.persistence.subagents.listByParent(thread.id);
  // A fork refers to its origin's children (read-only): listed after its own, marked as references.
  const references = (thread.state.fork?.children ?? []).map((c) => ({
    reference: c.childId,
    name: c.name,
    ...(c.title ? { title: c.title } : {}),
    description: c.description,
    resumable: c.resumable,
    status: c.status,
    /** The transcript belongs to the fork's origin: it can be read, never messaged or run from the fork. */
    readOnly: true,
    forkedFrom: thread.state.fork!.fromThreadId,
  }));
  return Response.json({ subagents: [...entries.map(toRegistryEntry), ...references] });
}

/** `GET /api/threads/:id/variables/:requestId`: required and missing scoped variables of a deferred spawn. */
export async function getVariablesHandler({ params, app }: Ctx): Promise<Response> {
  await app.runtime.getThread(params.id!);
  return Response.json(await app.runtime.getVariableRequest(params.id!, params.requestId!));
}

const body = z.object({ env: z.record(z.string(), z.string()) });

/** `POST /api/threads/:id/variables/:requestId` with `{env}`: store the values and boot the child. */
export async function postVariablesHandler({ params, request, app }: Ctx): Promise<Response> {
  await app.runtime.getThread(params.id!);
  const { env } = body.parse(await readJson(request));
  const r = await app.runtime.fulfillVariableRequest(params.id!, params.requestId!, env);
  return Response.json({ request_id: r.request_id, reference: r.reference, thread_id: r.thread.id }, { status: 201 });
}
