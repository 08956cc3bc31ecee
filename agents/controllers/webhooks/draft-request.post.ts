import { defineController } from "@studio/spec";

/**
 * `POST /api/controllers/webhooks/draft-request` with `{ "text": "...", "instructions"?: "..." }`: a webhook for other
 * systems (a form, a CMS, a mail hook). It starts a `writing_assistant` thread owned by the caller on the posted text
 * and answers at once with the thread and where to follow it; the assistant works in the background and its saved
 * notes appear at `GET /api/threads/:threadId/notes`.
 */
export default defineController(async ({ request, threads }) => {
  const body = (await request.json().catch(() => null)) as { text?: unknown; instructions?: unknown } | null;
  const text = typeof body?.text === "string" ? body.text.trim() : "";
  if (!text) {
    return Response.json({ error: { code: "BAD_REQUEST", message: "Send a JSON body with a non-empty `text`" } }, { status: 400 });
  }
  const instructions =
    typeof body?.instructions === "string" && body.instructions.trim()
      ? body.instructions.trim()
      : "Polish this text, then save the result as a note.";
  const state = await threads.create("writing_assistant", {
    tags: ["source:webhook"],
    message: `${instructions}\n\n---\n${text}`,
  });
  const base = `/api/threads/${state.threadId}`;
  return Response.json({ threadId: state.threadId, messages: `${base}/messages`, stream: `${base}/stream`, notes: `${base}/notes` }, { status: 202 });
});
