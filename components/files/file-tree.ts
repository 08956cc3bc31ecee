/** One entry of `GET /api/threads/:id/fs/` (the whole filesystem, flat). */
export interface FileEntry {
  path: string;
  type: "file" | "directory";
  size: number;
  mime_type: string | null;
  updated_at: string;
}

export interface FileNode {
  name: string;
  path: string;
  type: "file" | "directory";
  entry: FileEntry | null;
  children: FileNode[];
}

/**
 * The tree of a flat file listing: folders (explicit, or implied by a file below them) before files, each level sorted
 * by name. The root is `/`.
 */
export function buildFileTree(entries: readonly FileEntry[]): FileNode {
  const root: FileNode = { name: "/", path: "/", type: "directory", entry: null, children: [] };
  const folders = new Map<string, FileNode>([["/", root]]);
  const folder = (path: string): FileNode => {
    const known = folders.get(path);
    if (known) return known;
    const cut = path.lastIndexOf("/");
    const parent = folder(cut <= 0 ? "/" : path.slice(0, cut));
    const node: FileNode = { name: path.slice(cut + 1), path, type: "directory", entry: null, children: [] };
    parent.children.push(node);
    folders.set(path, node);
    return node;
  };
  for (const e of entries) {
    const path = e.path.replace(/\/+$/, "") || "/";
    if (e.type === "directory") {
      folder(path).entry = e;
      continue;
    }
    const cut = path.lastIndexOf("/");
    folder(cut <= 0 ? "/" : path.slice(0, cut)).children.push({ name: path.slice(cut + 1), path, type: "file", entry: e, children: [] });
  }
  const sort = (n: FileNode) => {
    n.children.sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === "directory" ? -1 : 1));
    n.children.forEach(sort);
  };
  sort(root);
  return root;
}

export type PreviewKind = "image" | "pdf" | "markdown" | "json" | "text" | "none";

const TEXT_EXTENSIONS = /\.(txt|csv|tsv|log|ya?ml|toml|ini|xml|html?|css|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|sh|sql|env)$/i;

/** How a file is previewed, by its type and name. */
export function previewKind(path: string, mime: string | null): PreviewKind {
  const type = (mime ?? "").split(";")[0]!.trim().toLowerCase();
  if (type.startsWith("image/") && type !== "image/svg+xml") return "image";
  if (type === "application/pdf" || /\.pdf$/i.test(path)) return "pdf";
  if (type === "text/markdown" || /\.(md|markdown)$/i.test(path)) return "markdown";
  if (type === "application/json" || type.endsWith("+json") || /\.json$/i.test(path)) return "json";
  if (type.startsWith("text/") || type === "image/svg+xml" || TEXT_EXTENSIONS.test(path)) return "text";
  return "none";
}

/** Text files (markdown, JSON and plain text) can be edited and saved. */
export const isEditable = (kind: PreviewKind) => kind === "markdown" || kind === "json" || kind === "text";

/** The URL of a file or folder of a thread (each path segment encoded). */
export function fileUrl(threadId: string, path: string): string {
  const segments = path.split("/").filter(Boolean).map(encodeURIComponent);
  return `/api/threads/${encodeURIComponent(threadId)}/fs/${segments.join("/")}`;
}

/** A human size: 512 B, 1.5 KB, 2.3 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
