import { format } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startFakeLlm, type FakeLlm, type Rule } from "../../scripts/fake-llm/server";
import { readSse } from "../helpers/sse";
import { api, fixtureAgents, startTestApp, useToken, waitFor, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  // Accounts exist in this app (the user env layer needs a user), so every call signs in.
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-123" } });
  useToken((await api(t.url, "POST", "/api/auth/login", { username: "admin", password: "pw-admin-123" })).body.token);
});
afterAll(async () => {
  useToken(null);
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

const callTool = (name: string, args: Record<string, unknown> = {}): Rule[] => [
  { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name, arguments: args }] } },
  { respond: { content: "done" } },
];

async function probe(agent: string, opts: { env?: Record<string, string>; userId?: string } = {}) {
  fake.setScript(callTool("env_probe"));
  const thread = await t.app.runtime.createThread({ agentId: agent, env: opts.env, userId: opts.userId ?? null });
  await t.app.runtime.postMessage(thread.id, { content: "probe" });
  await waitForThread(t.url, thread.id);
  const msgs = (await api(t.url, "GET", `/api/threads/${thread.id}/messages`)).body.messages;
  return msgs.find((m: any) => m.role === "tool").content as string;
}

describe("env resolution: thread → user → instance → agent → tool config → prompt", () => {
  it("takes each layer in turn as the layers above it are removed", async () => {
    const user = await t.app.prisma.user.create({ data: { username: `u${Date.now()}`, passwordHash: "x" } });
    await t.app.persistence.env.set("user", user.id, "LAYERED", "text", "user");
    await t.app.persistence.env.set("instance", "instance", "LAYERED", "text", "instance");
    expect(await probe("env_agent", { env: { LAYERED: "thread" }, userId: user.id })).toBe("LAYERED=thread");
    expect(await probe("env_agent", { userId: user.id })).toBe("LAYERED=user");
    await t.app.persistence.env.delete("user", user.id, "LAYERED");
    expect(await probe("env_agent", { userId: user.id })).toBe("LAYERED=instance");
    await t.app.persistence.env.delete("instance", "instance", "LAYERED");
    expect(await probe("env_agent")).toBe("LAYERED=agent");
    expect(await probe("env_tool")).toBe("LAYERED=tool");
    expect(await probe("env_prompt_only")).toBe("LAYERED=prompt");
  });
});

describe("invokeTool", () => {
  it("gives the invoked tool its own tool config env from the prompt, not the caller's", async () => {
    fake.setScript(callTool("invoke_probe"));
    const thread = await t.app.runtime.createThread({ agentId: "invoker" });
    await t.app.runtime.postMessage(thread.id, { content: "invoke" });
    await waitForThread(t.url, thread.id);
    const msgs = (await api(t.url, "GET", `/api/threads/${thread.id}/messages`)).body.messages;
    expect(msgs.find((m: any) => m.role === "tool").content).toBe("invoked: LAYERED=invoked config");
  });
});

describe("setEnv", () => {
  it("writes the thread's env and propagates to active descendants, except terminated ones and scoped declarations", async () => {
    const parent = await t.app.runtime.createThread({ agentId: "env_tool" });
    const child = await t.app.runtime.createThread({ agentId: "env_tool", parentId: parent.id, env: { COLOR: "red", OTHER: "kept" } });
    const grandchild = await t.app.runtime.createThread({ agentId: "env_tool", parentId: child.id });
    const scoped = await t.app.runtime.createThread({ agentId: "scoped_child", parentId: parent.id, env: { COLOR: "green" } });
    const ended = await t.app.runtime.createThread({ agentId: "env_tool", parentId: parent.id, env: { COLOR: "grey" } });
    await t.app.runtime.terminate(ended.id);
    fake.setScript(callTool("set_color", { color: "blue" }));
    await t.app.runtime.postMessage(parent.id, { content: "paint it" });
    await waitForThread(t.url, parent.id);
    const env = async (id: string) => (await api(t.url, "GET", `/api/threads/${id}`)).body.thread.env;
    expect((await env(parent.id)).COLOR).toBe("blue");
    expect(await env(child.id)).toEqual({ COLOR: "blue", OTHER: "kept" });
    expect((await env(grandchild.id)).COLOR).toBe("blue");
    expect((await env(scoped.id)).COLOR).toBe("green");
    expect((await env(ended.id)).COLOR).toBe("grey");
    const tool = (await api(t.url, "GET", `/api/threads/${parent.id}/messages`)).body.messages.find((m: any) => m.role === "tool");
    expect(tool.content).toBe("COLOR is now blue");
  });
});

describe("setEnv keeps secrets secret and honours only the child's own scoped declarations", () => {
  it("a secret declared only in the parent's graph, or created secret without a declaration, stays encrypted and masked everywhere", async () => {
    const parent = await t.app.runtime.createThread({
      agentId: "env_setter",
      env: { BACKEND_TOKEN: "old-token-1", EXTRA: "old-extra-1" },
      envTypes: { EXTRA: "secret" },
    });
    const child = await t.app.runtime.createThread({ agentId: "env_tool", parentId: parent.id });
    // boss's graph declares CHANNEL scoped only deep inside (its scoped_duo subagent): boss itself inherits it.
    const boss = await t.app.runtime.createThread({ agentId: "boss", parentId: parent.id });
    fake.setScript([
      {
        when: { last_role: "user" },
        times: 1,
        respond: {
          tool_calls: [
            { name: "set_env", arguments: { name: "BACKEND_TOKEN", value: "new-token-2" } },
            { name: "set_env", arguments: { name: "EXTRA", value: "new-extra-2" } },
            { name: "set_env", arguments: { name: "CHANNEL", value: "#general" } },
          ],
        },
      },
      { respond: { content: "done" } },
    ]);
    await t.app.runtime.postMessage(parent.id, { content: "set them" });
    await waitForThread(t.url, parent.id);
    for (const id of [parent.id, child.id, boss.id]) {
      const env = (await api(t.url, "GET", `/api/threads/${id}`)).body.thread.env;
      expect(env).toMatchObject({ BACKEND_TOKEN: "••••", EXTRA: "••••" });
      const rows = await t.app.prisma.envValue.findMany({ where: { ownerKey: id, name: { in: ["BACKEND_TOKEN", "EXTRA"] } } });
      expect(rows.map((r) => `${r.name}:${r.type}:${r.value.startsWith("v1:")}`).sort()).toEqual(["BACKEND_TOKEN:secret:true", "EXTRA:secret:true"]);
    }
    expect((await api(t.url, "GET", `/api/threads/${boss.id}`)).body.thread.env.CHANNEL).toBe("#general");
  });
});

describe("secrets", () => {
  const CANARY = "canary-7f3a9c1e-secret-value";

  it("never reach a model request, an event, a log row or an API response, and are encrypted at rest", async () => {
    fake.setScript(callTool("leaky"));
    const created = await api(t.url, "POST", "/api/threads", { agent_id: "secretive", env: { BACKEND_TOKEN: CANARY } });
    expect(created.status).toBe(201);
    const id = created.body.threadId;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "call the backend" });
    await waitForThread(t.url, id);

    const responses = [
      created.body,
      (await api(t.url, "GET", `/api/threads/${id}`)).body,
      (await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body,
      (await api(t.url, "GET", `/api/threads/${id}/logs`)).body,
      (await api(t.url, "GET", `/api/threads?limit=100`)).body,
    ];
    const token = (await api(t.url, "POST", "/api/auth/login", { username: "admin", password: "pw-admin-123" })).body.token;
    const stream = await readSse(`${t.url}/api/threads/${id}/stream`, { headers: { authorization: `Bearer ${token}` }, until: (ev) => ev.some((e) => e.data.type === "thread.stopped") });
    const everything = JSON.stringify({ responses, stream, requests: fake.getRequests() });
    expect(everything).not.toContain(CANARY);
    const tool = responses[2].messages.find((m: any) => m.role === "tool");
    expect(tool.content).toBe("called backend with token ••••");
    expect(responses[1].thread.env.BACKEND_TOKEN).toBe("••••");

    const rows = JSON.stringify([
      await t.app.prisma.threadEvent.findMany({ where: { threadId: id } }),
      await t.app.prisma.llmRequestLog.findMany({ where: { threadId: id } }),
      await t.app.prisma.message.findMany({ where: { threadId: id } }),
      await t.app.prisma.envValue.findMany({ where: { ownerKey: id } }),
    ], (_k, v) => (typeof v === "bigint" ? String(v) : v));
    expect(rows).not.toContain(CANARY);
    const stored = await t.app.prisma.envValue.findFirstOrThrow({ where: { ownerKey: id, name: "BACKEND_TOKEN" } });
    expect(stored.type).toBe("secret");
    expect(stored.value.startsWith("v1:")).toBe(true);
  });

  it("are masked wherever a tool, a hook or an effect writes them: messages, queue, parent, events, effects, logs", async () => {
    // Everything the server prints while this runs (the real console and the structured log on stdout, only observed).
    const printed: string[] = [];
    const spies: { mockRestore(): void }[] = (["log", "info", "warn", "error", "debug"] as const).map((level) => {
      const original = console[level].bind(console);
      return vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        printed.push(format(...args));
        original(...args);
      });
    });
    const write = process.stdout.write.bind(process.stdout);
    spies.push(
      vi.spyOn(process.stdout, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
        printed.push(String(chunk));
        return write(chunk, ...rest);
      }) as typeof process.stdout.write),
    );
    try {
      fake.setScript([
        { when: { last_contains: "spill now" }, times: 1, respond: { tool_calls: [{ name: "spill", arguments: {} }, { name: "spill_throw", arguments: {} }] } },
        { respond: { content: "ok" } },
      ]);
      const parent = await api(t.url, "POST", "/api/threads", { agent_id: "spiller", env: { BACKEND_TOKEN: CANARY } });
      const parentId = parent.body.threadId;
      const child = await t.app.runtime.createThread({ agentId: "spiller", parentId, env: { BACKEND_TOKEN: CANARY } });
      await api(t.url, "POST", `/api/threads/${child.id}/messages`, { content: "spill now" });
      await waitForThread(t.url, child.id);
      const effect = await waitFor(async () => {
        const [e] = (await api(t.url, "GET", `/api/threads/${child.id}/effects`)).body.effects;
        return e?.status === "failed" ? e : undefined;
      }, 15_000);
      await waitFor(async () => (await api(t.url, "GET", `/api/threads/${parentId}/messages?includeSilent=true`)).body.messages.length >= 2);
      await waitForThread(t.url, parentId);

      const token = (await api(t.url, "POST", "/api/auth/login", { username: "admin", password: "pw-admin-123" })).body.token;
      const streams = [];
      for (const id of [child.id, parentId]) {
        const logged = await t.app.prisma.threadEvent.count({ where: { threadId: id } });
        const auth = { authorization: `Bearer ${token}` };
        streams.push(await readSse(`${t.url}/api/threads/${id}/stream`, { lastEventId: 0, headers: auth, until: (ev) => ev.filter((e) => e.id).length >= logged }));
      }
      const responses = [];
      for (const id of [child.id, parentId]) {
        for (const p of ["", "/messages?includeSilent=true", "/logs", "/effects", "/subagents", "/cost"]) responses.push((await api(t.url, "GET", `/api/threads/${id}${p}`)).body);
      }
      const rows = JSON.stringify(
        [
          await t.app.prisma.threadEvent.findMany({ where: { threadId: { in: [child.id, parentId] } } }),
          await t.app.prisma.message.findMany({ where: { threadId: { in: [child.id, parentId] } } }),
          await t.app.prisma.llmRequestLog.findMany({ where: { threadId: { in: [child.id, parentId] } } }),
        ],
        (_k, v) => (typeof v === "bigint" ? String(v) : v),
      );
      const everything = JSON.stringify({ responses, streams, requests: fake.getRequests(), rows, printed });
      expect(everything).not.toContain(CANARY);

      // The writes happened, masked.
      const childMsgs = responses[1].messages.map((m: any) => m.content);
      expect(childMsgs).toEqual(expect.arrayContaining(["updated ••••", "queued ••••", "echo: queued tool ••••"]));
      expect(childMsgs.some((c: string) => /^Tool spill_throw failed: boom ••••/.test(c ?? ""))).toBe(true);
      expect(responses[7].messages.map((m: any) => m.content)).toContain("notify ••••");
      const childEvents = streams[0]!.map((e) => e.data);
      expect(childEvents.find((e) => e.type === "custom")).toMatchObject({ event: "spill", data: { token: "••••" } });
      expect(childEvents.some((e) => e.type === "hook.failed" && e.error === "hook boom ••••")).toBe(true);
      expect(childEvents.some((e) => e.type === "effect.updated" && e.error === "effect boom ••••")).toBe(true);
      expect(effect).toMatchObject({ args: { token: "••••" }, last_error: "effect boom ••••", attempts: 3 });
      expect(printed.some((line) => line.includes("tool spill_throw threw") && line.includes("boom ••••"))).toBe(true);
      expect(printed.some((line) => line.includes("effect spill_effect failed") && line.includes("effect boom ••••"))).toBe(true);
    } finally {
      for (const s of spies) s.mockRestore();
    }
  }, 30_000);

  it("a prompt env part naming a secret variable is a definition error", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const file = path.join(t.agentsDir, "prompts", "leaks_secret.ts");
    fs.writeFileSync(
      file,
      `import { definePrompt } from "@studio/spec";\nexport default definePrompt({ name: "leaks_secret", prompt: [{ type: "env", property: "BACKEND_TOKEN" }], model: "primary", tools: ["leaky"] });\n`,
    );
    try {
      const diag = await (async () => {
        for (let i = 0; i < 100; i++) {
          const d = (await api(t.url, "GET", "/api/diagnostics")).body.diagnostics.find((x: any) => x.file === "prompts/leaks_secret.ts");
          if (d) return d;
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      expect(diag).toMatchObject({ severity: "error" });
      expect(diag.message).toMatch(/secret/i);
    } finally {
      fs.rmSync(file);
    }
  });
});
