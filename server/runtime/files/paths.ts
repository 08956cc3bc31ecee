import { ValidationError } from "../errors";

/**
 * Normalise a thread filesystem path: absolute, `/`-separated, no `.`/empty segments, no trailing slash. A `..`
 * segment is refused: paths are confined to the thread's own filesystem.
 */
export function normalizePath(input: string): string {
  if (typeof input !== "string" || input.trim() === "") throw new ValidationError("A file path is required, e.g. /attachments/report.pdf");
  if (input.includes("\0")) throw new ValidationError(`Invalid file path ${JSON.stringify(input)}: it contains a NUL character`);
  const segments: string[] = [];
  for (const seg of input.replace(/\\/g, "/").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") throw new ValidationError(`Invalid file path ${JSON.stringify(input)}: ".." is not allowed; paths stay inside the thread's files`);
    segments.push(seg);
  }
  return `/${segments.join("/")}`;
}

/** The folder prefix of a normalised path for listing (`/` or `/a/b/`). */
export function folderPrefix(path: string): string {
  const p = normalizePath(path);
  return p === "/" ? "/" : `${p}/`;
}

export const baseName = (path: string): string => path.split("/").pop() ?? path;

const MIME: Record<string, string> = {
  txt: "text/plain", md: "text/markdown", json: "application/json", csv: "text/csv", html: "text/html",
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml",
  pdf: "application/pdf", zip: "application/zip",
};

export function guessMimeType(path: string): string {
  const ext = path.split(".").pop()?.toLowerCase() ?? "";
  return MIME[ext] ?? "application/octet-stream";
}
