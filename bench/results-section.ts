/**
 * bench/RESULTS.md holds the figures of `npm run bench` (which rewrites the file) and, between two markers, the
 * section `npm run bench:editor` writes. Each command replaces only its own part: `bench:editor` swaps its section
 * (or appends it), and `bench` carries the section over when it rewrites the rest.
 */
export const EDITOR_SECTION_BEGIN = "<!-- bench:editor begin: written by `npm run bench:editor`, kept by `npm run bench` -->";
export const EDITOR_SECTION_END = "<!-- bench:editor end -->";

/** The editor section of `text`, markers included, or null. */
export function editorSection(text: string): string | null {
  const start = text.indexOf(EDITOR_SECTION_BEGIN);
  const end = text.indexOf(EDITOR_SECTION_END, start);
  if (start < 0 || end < 0) return null;
  return text.slice(start, end + EDITOR_SECTION_END.length);
}

/** `text` with its editor section replaced by `body` (wrapped in the markers), or with it appended. */
export function withEditorSection(text: string, body: string): string {
  const section = `${EDITOR_SECTION_BEGIN}\n${body.trim()}\n${EDITOR_SECTION_END}`;
  const old = editorSection(text);
  if (old !== null) return text.replace(old, () => section);
  return `${text.replace(/\s*$/, "")}\n\n${section}\n`;
}
