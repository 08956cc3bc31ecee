import { defineTool } from "@studio/spec";
import { z } from "zod";

const SIGNING_KEY = "NOTES_SIGNING_KEY";

/** Lower-case, dash-separated file name from a title ("Q3 plan: draft!" → "q3-plan-draft"). */
function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  return slug || "note";
}

async function hmacSha256Hex(key: string, data: string): Promise<string> {
  const enc = new TextEncoder();
  const cryptoKey = await crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const signature = await crypto.subtle.sign("HMAC", cryptoKey, enc.encode(data));
  return Array.from(new Uint8Array(signature), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The optional signing key, or undefined when no source defines it (`state.env` throws then). */
async function optionalEnv(state: { env(name: string): Promise<string> }, name: string): Promise<string | undefined> {
  try {
    const value = await state.env(name);
    return value.trim() === "" ? undefined : value;
  } catch {
    return undefined;
  }
}

/**
 * Saves a note as Markdown in the thread's files (`/notes/<slug>.md`). When the secret `NOTES_SIGNING_KEY` is set,
 * also writes an HMAC-SHA256 signature of the file to `/notes/<slug>.md.sig` so notes can be verified later.
 */
export default defineTool({
  description:
    "Save a note (for example a finished text or an outline) as a Markdown file in this conversation's files. " +
    "Saving again with the same title replaces the note.",
  args: z.object({
    title: z.string().min(1).describe("Short title of the note; it also names the file."),
    content: z.string().describe("The note's content, in Markdown."),
  }),
  variables: [
    {
      name: SIGNING_KEY,
      type: "secret",
      required: false,
      description: "Optional key used to sign saved notes with HMAC-SHA256 (a .sig file next to each note).",
    },
  ],
  execute: async (state, { title, content }) => {
    const path = `/notes/${slugify(title)}.md`;
    const body = `# ${title.trim()}\n\n${content.trim()}\n`;
    const record = await state.writeFile(path, body, "text/markdown", { metadata: { title: title.trim() } });
    const key = await optionalEnv(state, SIGNING_KEY);
    if (key === undefined) return `Saved ${record.path} (${record.size} bytes).`;
    const signature = await hmacSha256Hex(key, body);
    await state.writeFile(`${path}.sig`, `${signature}\n`, "text/plain", { metadata: { algorithm: "HMAC-SHA256" } });
    return `Saved ${record.path} (${record.size} bytes) and its HMAC-SHA256 signature ${path}.sig.`;
  },
});
