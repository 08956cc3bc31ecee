import { defineThreadEndpoint } from "@studio/spec";

/** `GET /api/threads/:threadId/notes/:slug`: one saved note as Markdown, or 404. */
export default defineThreadEndpoint(async (state, _request, { params }) => {
  const data = await state.readFile(`/notes/${params.slug}.md`);
  if (!data) {
    return Response.json({ error: { code: "NOT_FOUND", message: `No note "${params.slug}" in this thread` } }, { status: 404 });
  }
  return new Response(data, { headers: { "content-type": "text/markdown; charset=utf-8" } });
});
