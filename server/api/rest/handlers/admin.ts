import type { App } from "../../app-context";
import { createUser, createUserBody, deleteUser, listUsers, updateUser, updateUserBody } from "../../accounts/users";
import { assertAdmin, assertThreadAccess } from "../../auth/access";
import { agentVariables } from "../../variables/resolution";
import { listProviders } from "../../variables/providers";
import { listVariables, saveVariables, saveVariablesBody } from "../../variables/env-values";
import { readJson, type RouteContext } from "../router";

type Ctx = RouteContext<App>;

/** `GET /api/users` (admin). */
export async function listUsersHandler({ app, caller }: Ctx): Promise<Response> {
  assertAdmin(caller, "User administration");
  return Response.json({ users: await listUsers(app.queries) });
}

/** `POST /api/users {username, password, role}` (admin) → 201. */
export async function createUserHandler({ app, caller, request }: Ctx): Promise<Response> {
  assertAdmin(caller, "User administration");
  return Response.json({ user: await createUser(app.queries, createUserBody.parse(await readJson(request))) }, { status: 201 });
}

/** `PATCH /api/users/:id {role?, password?, active?}` (admin): change the role, reset the password, (de)activate. */
export async function updateUserHandler({ app, caller, request, params }: Ctx): Promise<Response> {
  assertAdmin(caller, "User administration");
  return Response.json({ user: await updateUser(app.queries, params.id!, updateUserBody.parse(await readJson(request)), caller?.userId ?? null) });
}

/** `DELETE /api/users/:id` (admin). */
export async function deleteUserHandler({ app, caller, params }: Ctx): Promise<Response> {
  assertAdmin(caller, "User administration");
  await deleteUser(app.queries, params.id!, caller?.userId ?? null);
  return new Response(null, { status: 204 });
}

/** `GET /api/variables/instance` (admin). */
export async function instanceVariablesHandler({ app, caller }: Ctx): Promise<Response> {
  assertAdmin(caller, "Instance variables");
  return Response.json({ variables: await listVariables(app, "instance", "instance") });
}

/** `PUT /api/variables/instance {variables}` (admin). */
export async function saveInstanceVariablesHandler({ app, caller, request }: Ctx): Promise<Response> {
  assertAdmin(caller, "Instance variables");
  const body = saveVariablesBody.parse(await readJson(request));
  return Response.json({ variables: await saveVariables(app, "instance", "instance", body) });
}

/** `GET /api/variables/agents/:name?thread_id=`: the agent's declared variables and where each value comes from. */
export async function agentVariablesHandler({ app, caller, params, url }: Ctx): Promise<Response> {
  const threadId = url.searchParams.get("thread_id") ?? undefined;
  let userId = caller?.userId ?? null;
  if (threadId && caller) {
    await assertThreadAccess(app, caller, threadId);
    userId = (await app.runtime.getThread(threadId)).userId;
  }
  return Response.json(await agentVariables(app, params.name!, { userId, threadId }));
}

/** `GET /api/providers`: model providers and whether their keys are set (never the key). */
export async function providersHandler({ app }: Ctx): Promise<Response> {
  return Response.json({ providers: await listProviders(app) });
}
