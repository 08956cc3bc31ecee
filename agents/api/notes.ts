import { defineThreadEndpoint } from "@studio/spec";

/**
 * `GET /api/threads/:threadId/notes`: the notes `save_note` wrote in this thread (name, size, time), newest first,
 * so another system can pick up what the assistant saved without reading the chat.
 */
export default defineThreadEndpoint(async (state) => {
  const { entries } = await state.readdirFile("/notes");
  const notes = entries
    .filter((e) => e.type === "file" && e.name.endsWith(".md"))
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .map((e) => ({ slug: e.name.slice(0, -3), path: e.path, size: e.size, updatedAt: e.updatedAt }));
  return { threadId: state.threadId, notes };
});
