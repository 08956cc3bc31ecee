import type { App } from "../../app-context";
import { createApiKey, createKeyBody, listApiKeys, revokeApiKey } from "../../accounts/api-keys";
import { assertAccount, assertSession } from "../../auth/access";
import { listVariables, saveVariables, saveVariablesBody } from "../../variables/env-values";
import { readJson, type RouteContext } from "../router";

type Ctx = RouteContext<App>;

/** `GET /api/auth/keys`: the caller's API keys (prefix, created, last used; never the key). */
export async function listKeysHandler({ app, caller }: Ctx): Promise<Response> {
  assertAccount(caller);
  return Response.json({ api_keys: await listApiKeys(app.queries, caller.userId) });
}

/**
 * `POST /api/auth/keys {name, scopes?, expires_at?}` → 201 `{key, api_key}`: the key is in this response only. The
 * route table lets only a signed-in session here (a key cannot mint keys).
 */
export async function createKeyHandler({ app, caller, request }: Ctx): Promise<Response> {
  assertAccount(caller);
  assertSession(caller);
  return Response.json(await createApiKey(app.queries, caller, createKeyBody.parse(await readJson(request))), { status: 201 });
}

/** `DELETE /api/auth/keys/:id`: revoke. */
export async function revokeKeyHandler({ app, caller, params }: Ctx): Promise<Response> {
  assertAccount(caller);
  await revokeApiKey(app.queries, caller.userId, params.id!);
  return new Response(null, { status: 204 });
}

/** `GET /api/users/me/variables`: the caller's own variables (secrets masked). */
export async function myVariablesHandler({ app, caller }: Ctx): Promise<Response> {
  assertAccount(caller);
  return Response.json({ variables: await listVariables(app, "user", caller.userId) });
}

/** `PUT /api/users/me/variables {variables: [{name, type, value?}]}`: replace the caller's variables. */
export async function saveMyVariablesHandler({ app, caller, request }: Ctx): Promise<Response> {
  assertAccount(caller);
  const body = saveVariablesBody.parse(await readJson(request));
  return Response.json({ variables: await saveVariables(app, "user", caller.userId, body) });
}

/** `GET /api/threads/:id/env`: the thread's own variables (secrets masked). Ownership is checked by the route table. */
export async function threadEnvHandler({ app, params }: Ctx): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  return Response.json({ variables: await listVariables(app, "thread", thread.id) });
}

/** `PUT /api/threads/:id/env {variables}`: replace the thread's own variables. */
export async function saveThreadEnvHandler({ app, params, request }: Ctx): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  const body = saveVariablesBody.parse(await readJson(request));
  return Response.json({ variables: await saveVariables(app, "thread", thread.id, body) });
}
