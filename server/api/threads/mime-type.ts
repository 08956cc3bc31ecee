/**
 * MIME types of thread files, parsed rather than matched by prefix. A stored type comes from whoever wrote the file
 * (an upload's header, a tool), and a browser reads `text/plain,text/html` as HTML: so a type is used only when it is
 * exactly one `type/subtype` with optional `;` parameters, and the inline allowlist compares its essence exactly.
 */
const TOKEN = "[!#$%&'*+.^_`|~0-9a-z-]+";
const ESSENCE = new RegExp(`^${TOKEN}/${TOKEN}$`);
const PARAMETER = new RegExp(`^${TOKEN}=(?:${TOKEN}|"[^"\\\\]*")$`);

/** The essence (`type/subtype`, lower-cased) of a single well-formed MIME type, or null. */
export function mimeEssence(value: string | null | undefined): string | null {
  if (!value) return null;
  const [essence, ...params] = value.split(";").map((s) => s.trim());
  const lower = essence?.toLowerCase() ?? "";
  if (!ESSENCE.test(lower)) return null;
  if (params.some((p) => !PARAMETER.test(p.toLowerCase()))) return null;
  return lower;
}

/** Types a browser may show inline from a thread's files; anything else is served as a download. */
const INLINE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "text/plain", "application/pdf"]);

export function isInlineSafe(value: string | null | undefined): boolean {
  const essence = mimeEssence(value);
  return essence !== null && INLINE.has(essence);
}
