import { z } from "zod";
import type { App } from "../app-context";
import { ownerOf } from "../auth/access";
import { readJson, type RouteContext } from "../rest/router";
import { threadView } from "./views";

type Ctx = RouteContext<App>;

/** The fields of a fork request. */
export const forkFields = z.object({
  messageId: z.string({ error: "messageId is required: the id of the message to fork at" }).min(1, { error: "messageId must not be empty" }),
  edit: z
    .object({ content: z.string({ error: "edit.content must be a string" }).refine((s) => s.trim() !== "", { error: "edit.content must not be empty" }) })
    .strict()
    .optional(),
  regenerate: z.boolean({ error: "regenerate must be true or false" }).optional(),
});

/** The body of `POST /api/threads/:id/fork`. */
export const forkBody = forkFields.strict();

/**
 * `POST /api/threads/:id/fork` `{messageId, edit?: {content}, regenerate?}` → 201 `{threadId, thread}`: a new thread with the history
 * up to that message (the original is not touched); it runs when its last message calls for a reply. With
 * `regenerate`, `messageId` names an assistant reply: the fork is made at the message before it and answers it again.
 */
export async function forkHandler({ params, request, app, caller }: Ctx): Promise<Response> {
  const body = forkBody.parse(await readJson(request));
  const source = await app.runtime.getThread(params.id!);
  const fork = await app.runtime.fork(source.id, { messageId: body.messageId, edit: body.edit, regenerate: body.regenerate, userId: ownerOf(caller) ?? source.userId });
  const env = await app.persistence.env.list("thread", fork.id);
  return Response.json({ threadId: fork.id, thread: threadView(fork, env) }, { status: 201 });
}
