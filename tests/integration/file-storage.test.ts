import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { settleTreeAt, registryAt } from "../helpers/thread-queries";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-files-"));

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake?.close();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

/** Runs the state_probe tool (every file member of ThreadState) on a `scheduler` thread and returns its report. */
async function probe(t: TestApp) {
  fake.setScript([
    { when: { last_contains: "go" }, times: 1, respond: { tool_calls: [{ name: "state_probe", arguments: {} }] } },
    { respond: { content: "done" } },
  ]);
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "scheduler" });
  await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "go" });
  await waitForThread(t.url, body.threadId);
  const messages = (await api(t.url, "GET", `/api/threads/${body.threadId}/messages`)).body.messages;
  return { id: body.threadId as string, r: JSON.parse(messages.find((m: any) => m.name === "state_probe").content) };
}

describe.each([
  ["database", {}],
  ["disk", { FILE_STORAGE: "disk", FILE_STORAGE_DIR: path.join(storageDir, "probe") }],
] as const)("the thread filesystem on %s storage", (mode, env) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ...env } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("reads, streams, greps, finds, lists, thumbnails and deletes", async () => {
    const { id, r } = await probe(t);
    expect(r.readFile).toBe("alpha\nbeta line\n");
    expect(r.readFileStream).toBe(4);
    expect(r.statFile).toBe(16);
    expect(r.readdirFile).toEqual(["directory:/docs/deep", "file:/docs/a.txt"]);
    expect(r.getFileStats).toMatchObject({ fileCount: 2 });
    expect(r.grepFiles).toEqual(["/docs/a.txt:2", "/docs/deep/b.md:1"]);
    expect(r.findFiles).toEqual(["/docs/deep/b.md"]);
    expect(r.getFileThumbnail).toBe(true);
    expect(r.unlinkFile).toBe(true);
    const row = await t.app.prisma.threadFile.findUniqueOrThrow({ where: { threadId_path: { threadId: id, path: "/docs/deep/b.md" } } });
    const onDisk = path.join(storageDir, "probe", id, "docs/deep/b.md");
    if (mode === "disk") {
      expect(row.data).toBeNull();
      expect(fs.readFileSync(onDisk, "utf8")).toBe("# beta");
      expect(fs.existsSync(path.join(storageDir, "probe", id, "docs/a.txt"))).toBe(false); // unlinked
    } else {
      expect(Buffer.from(row.data!).toString()).toBe("# beta");
      expect(fs.existsSync(onDisk)).toBe(false);
    }
    const served = await fetch(`${t.url}/api/threads/${id}/fs/docs/deep/b.md`);
    expect(await served.text()).toBe("# beta");
  });
});

describe("switching from database to disk storage", () => {
  let api1: TestApp;
  let worker: TestApp;
  const dir = path.join(storageDir, "mixed");
  beforeAll(async () => {
    // The API app keeps writing to the database; the worker app (same database) writes to disk. Both read both.
    api1 = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", RUNTIME_WORKERS: "0", FILE_STORAGE_DIR: dir } });
    worker = await startTestApp({
      agentsSource: fixtureAgents,
      shareDatabaseWith: api1,
      env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", FILE_STORAGE: "disk", FILE_STORAGE_DIR: dir },
    });
  });
  afterAll(async () => {
    await worker?.close();
    await api1?.close();
  });

  it("copies subagent attachments both ways across the two storages, and serves every file from either app", async () => {
    fake.setScript([
      { when: { system_contains: "You are the boss.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "worker_duo", arguments: { task: "Write the summary", title: "Summary writer", files: ["/attachments/brief.txt"] } }] } },
      { when: { system_contains: "You are the child worker.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "write_note", arguments: { path: "/attachments/summary.txt", text: "THE SUMMARY" } }] } },
      { when: { system_contains: "You are the child worker.", last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Summary written", files: ["/attachments/summary.txt"] } }] } },
      { when: { system_contains: "You are the boss.", last_role: "tool" }, respond: { content: "Your summary is ready." } },
    ]);
    const id = (await api(api1.url, "POST", "/api/threads", { agent_id: "boss" })).body.threadId;
    // Uploaded through the database-mode app: the bytes are in the database.
    await fetch(`${api1.url}/api/threads/${id}/fs/attachments/brief.txt`, { method: "POST", body: "BRIEF BYTES", headers: { "content-type": "text/plain" } });
    const brief = await api1.app.prisma.threadFile.findUniqueOrThrow({ where: { threadId_path: { threadId: id, path: "/attachments/brief.txt" } } });
    expect(brief.data).not.toBeNull();
    await api(api1.url, "POST", `/api/threads/${id}/messages`, { content: "summarize it" });
    await settleTreeAt(api1.url, id);

    const [entry] = await registryAt(api1.url, id);
    const child = entry.reference as string;
    // The child's copy of the brief (from database bytes) and its summary were written by the disk-mode worker.
    expect(fs.readFileSync(path.join(dir, child, "attachments/brief.txt"), "utf8")).toBe("BRIEF BYTES");
    expect(fs.readFileSync(path.join(dir, child, "attachments/summary.txt"), "utf8")).toBe("THE SUMMARY");
    // The copy back to the parent went to disk too; the database-mode app serves it (it reads the disk folder).
    const back = await api1.app.prisma.threadFile.findFirstOrThrow({ where: { threadId: id, sourceThreadId: child } });
    expect(back.data).toBeNull();
    for (const app of [api1, worker]) {
      expect(await (await fetch(`${app.url}/api/threads/${id}${"/fs" + back.path}`)).text()).toBe("THE SUMMARY");
      expect(await (await fetch(`${app.url}/api/threads/${id}/fs/attachments/brief.txt`)).text()).toBe("BRIEF BYTES");
    }
  });
});
