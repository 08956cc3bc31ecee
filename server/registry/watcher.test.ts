import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { baseGraph, makeAgentsDir, projectRoot, prompt, removeDir, specModulePath, writeFiles } from "./test-fixtures";
import type { RegistrySnapshot } from "./types";
import { createRegistryStore, type RegistryStore } from "./watcher";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function openStore(dir: string, extra: Partial<Parameters<typeof createRegistryStore>[0]> = {}): Promise<RegistryStore> {
  const store = await createRegistryStore({ dir, projectRoot, specModulePath, watch: true, ...extra });
  cleanups.push(() => store.close());
  return store;
}

/** Resolves with the first snapshot (current or next) that satisfies `predicate`. */
function waitFor(store: RegistryStore, predicate: (s: RegistrySnapshot) => boolean, timeoutMs = 8000): Promise<RegistrySnapshot> {
  if (predicate(store.current())) return Promise.resolve(store.current());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out; last snapshot v${store.current().version}: ${JSON.stringify(store.current().diagnostics)}`));
    }, timeoutMs);
    const unsubscribe = store.subscribe((s) => {
      if (!predicate(s)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(s);
    });
  });
}

const brokenPrompt = `import { definePrompt } from "@studio/spec";\nexport default definePrompt({ name: "q", model: "m", prompt: "x", \n`;

describe("registry store", () => {
  it("picks up edits on disk while watching: broken → diagnostic → fixed → cleared", async () => {
    const dir = await makeAgentsDir(baseGraph());
    cleanups.push(() => removeDir(dir));
    const seen: number[] = [];
    const store = await openStore(dir, { onReload: (s) => seen.push(s.version) });
    const first = store.current();
    expect(first.version).toBe(1);
    expect(first.diagnostics).toEqual([]);

    await writeFiles(dir, { "prompts/q.ts": brokenPrompt });
    const broken = await waitFor(store, (s) => s.diagnostics.some((d) => d.file === "prompts/q.ts"));
    expect(broken.diagnostics[0]).toMatchObject({ file: "prompts/q.ts", severity: "error" });
    expect(broken.diagnostics[0]!.message).toContain("syntax error");
    expect(broken.agents.has("a")).toBe(true); // the rest of the graph stays usable
    expect(first.diagnostics).toEqual([]); // earlier snapshots never change

    await writeFiles(dir, { "prompts/q.ts": prompt("q") });
    const fixed = await waitFor(store, (s) => s.prompts.has("q"));
    expect(fixed.diagnostics).toEqual([]);
    expect(fixed.version).toBeGreaterThan(broken.version);
    expect(seen.at(-1)).toBe(fixed.version);

    await fs.rm(path.join(dir, "prompts/q.ts"));
    const removed = await waitFor(store, (s) => !s.prompts.has("q"));
    expect(removed.diagnostics).toEqual([]);
  });

  it("reports a missing AGENTS_DIR and loads it once it appears", async () => {
    const parent = await makeAgentsDir({});
    cleanups.push(() => removeDir(parent));
    const dir = path.join(parent, "agents");
    const store = await openStore(dir, { missingDirPollMs: 50 });
    expect(store.current().diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("AGENTS_DIR is missing")]);
    await writeFiles(dir, baseGraph());
    const loaded = await waitFor(store, (s) => s.agents.has("a"));
    expect(loaded.diagnostics).toEqual([]);
  });

  it("reloads on demand without watching, and coalesces reloads requested while one runs", async () => {
    const dir = await makeAgentsDir(baseGraph());
    cleanups.push(() => removeDir(dir));
    const store = await openStore(dir, { watch: false });
    await writeFiles(dir, { "prompts/q.ts": prompt("q") });
    await new Promise((r) => setTimeout(r, 300));
    expect(store.current().prompts.has("q")).toBe(false); // not watching
    const first = store.reload();
    expect(store.reload()).toBe(first); // not started yet: one load serves both calls
    await new Promise((r) => setImmediate(r)); // the load is running now
    await writeFiles(dir, { "prompts/r.ts": prompt("r") });
    const second = store.reload();
    const third = store.reload();
    expect(second).not.toBe(first);
    expect(third).toBe(second); // queued behind the running load, shared
    const [a, c] = await Promise.all([first, third]);
    expect(a.version).toBe(2);
    expect(a.prompts.has("q")).toBe(true);
    expect(c.version).toBe(3);
    expect(c.prompts.has("r")).toBe(true);
    expect(store.current()).toBe(c);
  });

  it("keeps notifying when a listener throws, and stops after unsubscribe and close", async () => {
    const dir = await makeAgentsDir(baseGraph());
    cleanups.push(() => removeDir(dir));
    const store = await openStore(dir, { watch: false });
    const calls: number[] = [];
    const errors: unknown[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    cleanups.push(() => {
      console.error = originalError;
    });
    store.subscribe(() => {
      throw new Error("listener bug");
    });
    const off = store.subscribe((s) => calls.push(s.version));
    await store.reload();
    off();
    await store.reload();
    expect(calls).toEqual([2]);
    expect(errors).toHaveLength(2);
    store.close();
    const afterClose = await store.reload();
    expect(afterClose.version).toBe(4);
    expect(calls).toEqual([2]);
  });

  it("publishes immutable snapshots", async () => {
    const dir = await makeAgentsDir(baseGraph());
    cleanups.push(() => removeDir(dir));
    const snap = (await openStore(dir, { watch: false })).current();
    expect(() => (snap.agents as Map<string, unknown>).delete("a")).toThrow(/immutable/);
    expect(Object.isFrozen(snap)).toBe(true);
    expect(Object.isFrozen(snap.agents.get("a")!.sides)).toBe(true);
    expect(Object.isFrozen(snap.diagnostics)).toBe(true);
  });
});
