import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskFileStorage } from "./disk-file-storage";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "disk-storage-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("diskFileStorage", () => {
  const storage = diskFileStorage(root);

  it("writes, reads, streams in chunks and deletes a thread's file under <root>/<thread>/<path>", async () => {
    await storage.write("t1", "/a/b.txt", new TextEncoder().encode("0123456789"));
    expect(fs.readFileSync(path.join(root, "t1/a/b.txt"), "utf8")).toBe("0123456789");
    expect(new TextDecoder().decode((await storage.read("t1", "/a/b.txt"))!)).toBe("0123456789");
    const chunks: number[] = [];
    for await (const c of (await storage.readStream("t1", "/a/b.txt", 4))!) chunks.push(c.byteLength);
    expect(chunks).toEqual([4, 4, 2]);
    await storage.delete("t1", "/a/b.txt");
    expect(await storage.read("t1", "/a/b.txt")).toBeNull();
    expect(await storage.readStream("t1", "/a/b.txt", 4)).toBeNull();
    await storage.delete("t1", "/a/b.txt"); // nothing to delete: no error
  });

  it("refuses paths and thread ids that would leave the thread's folder", async () => {
    await expect(storage.write("t1", "/../t2/x", new Uint8Array())).rejects.toThrow(/leaves the thread's storage folder/);
    await expect(storage.read("../t2", "/x")).rejects.toThrow(/leaves the thread's storage folder/);
  });
});
