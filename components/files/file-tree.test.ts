import { describe, expect, it } from "vitest";
import { buildFileTree, fileUrl, formatSize, previewKind, type FileEntry } from "./file-tree";

const file = (path: string, mime: string | null = null): FileEntry => ({ path, type: "file", size: 1, mime_type: mime, updated_at: "" });
const dir = (path: string): FileEntry => ({ path, type: "directory", size: 0, mime_type: null, updated_at: "" });

describe("buildFileTree", () => {
  it("nests files under their folders (explicit or implied), folders first, names sorted", () => {
    const tree = buildFileTree([file("/b.txt"), file("/docs/x/deep.md"), dir("/empty"), file("/a.txt"), file("/docs/readme.md")]);
    const shape = (n: ReturnType<typeof buildFileTree>): unknown => (n.type === "file" ? n.name : { [n.name]: n.children.map(shape) });
    expect(shape(tree)).toEqual({ "/": [{ docs: [{ x: ["deep.md"] }, "readme.md"] }, { empty: [] }, "a.txt", "b.txt"] });
    expect(tree.children[0]!.children[0]!.path).toBe("/docs/x");
  });
});

describe("previewKind", () => {
  it("picks the preview by type, then by name", () => {
    expect(previewKind("/p.png", "image/png")).toBe("image");
    expect(previewKind("/p.svg", "image/svg+xml")).toBe("text");
    expect(previewKind("/r.pdf", null)).toBe("pdf");
    expect(previewKind("/r.md", "text/plain")).toBe("markdown");
    expect(previewKind("/d", "application/json; charset=utf-8")).toBe("json");
    expect(previewKind("/notes.csv", "application/octet-stream")).toBe("text");
    expect(previewKind("/blob.bin", "application/octet-stream")).toBe("none");
  });
});

it("fileUrl encodes each segment; formatSize is readable", () => {
  expect(fileUrl("t 1", "/a b/c#d.txt")).toBe("/api/threads/t%201/fs/a%20b/c%23d.txt");
  expect([formatSize(512), formatSize(1536), formatSize(3 * 1024 * 1024)]).toEqual(["512 B", "1.5 KB", "3.0 MB"]);
});
