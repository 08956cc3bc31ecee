import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveFetchHandler } from "@/server/api/node-http";
import { createRestHandler } from "@/server/api/rest/routes";
import { createTrpcHandler } from "@/server/api/trpc-handler";
import { readDefinitionSource } from "@/server/registry/writer";
import type { SaveChange } from "@/shared/editor/save-change";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { signIn, type As } from "../helpers/accounts";
import { fixtureAgents, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

// "Try it" on an unsaved editor draft: the thread (and its children) run the draft's definitions; no file is written.
let fake: FakeLlm;
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let admin: As;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-12345" } });
  const rest = createRestHandler(async () => t.app);
  const trpc = createTrpcHandler(async () => t.app);
  server = await serveFetchHandler((req) => (new URL(req.url).pathname.startsWith("/api/trpc/") ? trpc(req) : rest(req)));
  admin = await signIn(server.url, "admin", "pw-admin-12345");
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await fake?.close();
});

const tryDraft = (input: { agent_id: string; changes: SaveChange[]; env?: Record<string, string> }) => admin("POST", "/api/trpc/editor.tryDraft", input);

/** The editor's change of one saved file: its document with `edit` applied, as the editor sends it. */
function writeChange(file: string, edit: (value: Record<string, any>) => Record<string, any>): SaveChange {
  const read = readDefinitionSource(fs.readFileSync(path.join(t.agentsDir, file), "utf8"));
  if (!read.ok) throw new Error(read.reason);
  const kind = file.split("/")[0] as "agents" | "prompts" | "models";
  return { op: "write", kind, file, hash: null, value: edit(structuredClone(read.value)) as never };
}

async function waitIdle(threadId: string) {
  return waitFor(async () => {
    const res = await admin("GET", `/api/threads/${threadId}`);
    return res.body.thread?.status === "idle" ? res.body.thread : undefined;
  }, 15_000);
}

describe("Try it on an unsaved draft", () => {
  it("runs the draft's prompt text; the saved file and ordinary threads are untouched", async () => {
    fake.setScript([{ respond: { content: "answered" } }]);
    fake.clearRequests();
    const file = path.join(t.agentsDir, "prompts/chat.ts");
    const before = fs.readFileSync(file, "utf8");
    const change = writeChange("prompts/chat.ts", (v) => ({ ...v, prompt: [{ type: "text", content: "DRAFT INSTRUCTIONS: answer in haiku." }] }));

    const res = await tryDraft({ agent_id: "chat", changes: [change] });
    expect(res.status).toBe(200);
    const threadId = res.body.result.data.id as string;
    expect((await admin("POST", `/api/threads/${threadId}/messages`, { content: "hi from the draft" })).status).toBe(202);
    await waitIdle(threadId);
    const drafted = fake.getRequests().at(-1)!;
    expect(drafted.messages[0]).toMatchObject({ role: "system", content: "DRAFT INSTRUCTIONS: answer in haiku." });
    expect(fs.readFileSync(file, "utf8")).toBe(before);

    // A thread started the ordinary way runs the saved prompt.
    const plain = (await admin("POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    expect((await admin("POST", `/api/threads/${plain}/messages`, { content: "hi from the saved one" })).status).toBe(202);
    await waitIdle(plain);
    const saved = fake.getRequests().at(-1)!;
    expect(saved.messages[0]!.content).toBe("You are a test assistant for Acme.");

    // The draft thread keeps its draft for the next turns.
    expect((await admin("POST", `/api/threads/${threadId}/messages`, { content: "again" })).status).toBe(202);
    await waitIdle(threadId);
    expect(fake.getRequests().at(-1)!.messages[0]!.content).toBe("DRAFT INSTRUCTIONS: answer in haiku.");
  });

  it("runs the draft in the children a draft thread spawns (code of the saved file, such as a zod schema, is kept)", async () => {
    const draftWorker = "You are the DRAFT child worker.";
    fake.setScript([
      { when: { system_contains: "You are the boss.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "worker_duo", arguments: { task: "Write it" } }] } },
      { when: { system_contains: draftWorker }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Done by the draft" } }] } },
      { when: { system_contains: "You are the boss.", last_role: "tool" }, respond: { content: "All done." } },
    ]);
    fake.clearRequests();
    const change = writeChange("prompts/child_worker.ts", (v) => ({ ...v, prompt: draftWorker }));
    expect(change.op === "write" && change.value.requiredSchema).toMatchObject({ $code: expect.stringContaining("z.object") });
    const res = await tryDraft({ agent_id: "boss", changes: [change] });
    expect(res.status).toBe(200);
    const id = res.body.result.data.id as string;
    expect((await admin("POST", `/api/threads/${id}/messages`, { content: "go" })).status).toBe(202);
    await waitIdle(id);
    const systems = fake.getRequests().map((r) => r.messages[0]!.content);
    expect(systems).toContain(draftWorker);
    expect(systems).not.toContain("You are the child worker.");
    const offered = fake.getRequests()[0]!.tools!.find((x: any) => x.function.name === "worker_duo") as any;
    expect(Object.keys(offered.function.parameters.properties)).toContain("task");
    const msgs = (await admin("GET", `/api/threads/${id}/messages`)).body.messages;
    expect(msgs.at(-1).content).toBe("All done.");
    const [child] = await t.app.persistence.threads.list({ parentId: id }).then((r) => r.threads);
    expect(child!.state.draft?.id).toBe((await t.app.persistence.threads.get(id))!.state.draft!.id);
  });

  it("runs an agent that exists only in the draft, and the chat view shows it with the draft's agents", async () => {
    fake.setScript([{ when: { system_contains: "You are the brand-new drafted agent." }, respond: { content: "new agent here" } }]);
    const changes: SaveChange[] = [
      { op: "write", kind: "prompts", file: null, hash: null, value: { name: "fresh_prompt", prompt: "You are the brand-new drafted agent.", model: "primary", includeChat: true, tools: ["echo"] } },
      { op: "write", kind: "agents", file: null, hash: null, value: { name: "fresh_agent", type: "ai_human", title: "Fresh", sideA: { prompt: "fresh_prompt" } } },
    ];
    const res = await tryDraft({ agent_id: "fresh_agent", changes });
    expect(res.status).toBe(200);
    const id = res.body.result.data.id as string;
    expect((await admin("POST", `/api/threads/${id}/messages`, { content: "hi" })).status).toBe(202);
    await waitIdle(id);
    expect((await admin("GET", `/api/threads/${id}/messages`)).body.messages.at(-1).content).toBe("new agent here");
    expect(fs.existsSync(path.join(t.agentsDir, "agents/fresh_agent.ts"))).toBe(false);
    const snap = await admin("GET", `/api/trpc/chat.snapshot?input=${encodeURIComponent(JSON.stringify({ threadId: id }))}`);
    expect(snap.body.result.data.draftAgents.map((a: { name: string }) => a.name)).toContain("fresh_agent");
    expect(snap.body.result.data.toolKinds.echo).toBe("tool");
    // An ordinary thread's view has no draft agents.
    const plain = (await admin("POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    expect((await admin("GET", `/api/trpc/chat.snapshot?input=${encodeURIComponent(JSON.stringify({ threadId: plain }))}`)).body.result.data.draftAgents).toBeNull();
  });

  it("stops a draft thread with a clear error when its draft no longer builds (the saved files changed)", async () => {
    fake.setScript([{ respond: { content: "should not be asked" } }]);
    fake.clearRequests();
    const res = await tryDraft({ agent_id: "chat", changes: [writeChange("prompts/chat.ts", (v) => ({ ...v, prompt: "Draft." }))] });
    const id = res.body.result.data.id as string;
    // As if the saved files had changed under the draft: it now names a model that does not exist.
    const thread = (await t.app.persistence.threads.get(id))!;
    const broken = writeChange("prompts/chat.ts", (v) => ({ ...v, model: "gone_model" }));
    await t.app.persistence.threads.update(id, { state: { ...thread.state, draft: { id: "draft_broken", changes: [broken] } } });
    expect((await admin("POST", `/api/threads/${id}/messages`, { content: "hi" })).status).toBe(202);
    const stopped = await waitIdle(id);
    expect(stopped.stop_reason).toBe("error");
    const events = await t.app.persistence.events.after(id, 0);
    const stop = events.find((e) => e.event.type === "thread.stopped")?.event as { detail?: string } | undefined;
    expect(stop?.detail).toContain("runs an unsaved editor draft (draft_broken) that no longer builds");
    expect(stop?.detail).toContain('prompts/chat.ts model: Prompt "chat" uses model "gone_model"');
    expect(fake.getRequests()).toHaveLength(0);
  });

  it("answers 400 naming the file and field of an invalid draft, and starts no thread", async () => {
    const count = async () => (await admin("GET", "/api/threads?limit=500")).body.threads.length as number;
    const threads = await count();
    const bad = writeChange("prompts/chat.ts", (v) => ({ ...v, includeChat: "yes" }));
    const res = await tryDraft({ agent_id: "chat", changes: [bad] });
    expect(res.status).toBe(400);
    expect(res.body.error.data.appCode).toBe("VALIDATION_ERROR");
    expect(res.body.error.data.details).toEqual([expect.objectContaining({ file: "prompts/chat.ts", path: "includeChat" })]);
    expect(res.body.error.message).toContain("prompts/chat.ts includeChat");

    // A draft that validates field by field but does not link (an unknown model) names the field and the fix.
    const unlinked = writeChange("prompts/chat.ts", (v) => ({ ...v, model: "no_such_model" }));
    const res2 = await tryDraft({ agent_id: "chat", changes: [unlinked] });
    expect(res2.status).toBe(400);
    expect(res2.body.error.data.details).toEqual([expect.objectContaining({ file: "prompts/chat.ts", path: "model", message: expect.stringContaining("no_such_model") })]);
    expect(await count()).toBe(threads);
  });

  it("is for administrators only", async () => {
    const user = await admin("POST", "/api/users", { username: "tryer", password: "pw-tryer-12345", role: "user" });
    expect(user.status).toBe(201);
    const asUser = await signIn(server.url, "tryer", "pw-tryer-12345");
    const change = writeChange("prompts/chat.ts", (v) => v);
    expect((await asUser("POST", "/api/trpc/editor.tryDraft", { agent_id: "chat", changes: [change] })).status).toBe(403);
  });
});
