import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearRequests, getRequests, getScript, setScript } from "./fake-llm-client";
import { DEFAULT_MODELS } from "./http-router";
import { ScriptError, startFakeLlm, type FakeLlm, type LoggedRequest } from "./server";

let fake: FakeLlm;
let client: OpenAI;
let root: string;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-llm-"));
  fake = await startFakeLlm({ logFile: path.join(dir, "nested", "requests.jsonl") });
  root = fake.url.replace(/\/v1$/, "");
  client = new OpenAI({ baseURL: fake.url, apiKey: "sk-test-key", maxRetries: 0 });
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

describe("server basics", () => {
  it("binds to 127.0.0.1 and reports health", async () => {
    expect(fake.url).toBe(`http://127.0.0.1:${fake.port}/v1`);
    const res = await fetch(`${root}/__health`);
    expect(await res.json()).toEqual({ ok: true, scripted: true });
  });

  it("refuses a host other than 127.0.0.1", async () => {
    await expect(startFakeLlm({ host: "0.0.0.0" as "127.0.0.1" })).rejects.toThrow(/127\.0\.0\.1 only/);
  });

  it("answers unknown routes with a 404 that lists the routes", async () => {
    const res = await fetch(`${root}/v1/embeddings`, { method: "POST" });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain("POST /v1/chat/completions");
  });

  it("rejects an invalid chat request with the field path", async () => {
    const res = await postJson(`${fake.url}/chat/completions`, { model: "m", messages: [{ content: "no role" }] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain("messages[0].role");
  });
});

describe("GET /v1/models", () => {
  it("lists the models named in the script, then the defaults", async () => {
    fake.setScript([{ when: { model: "scripted-model-x" }, respond: { content: "x" } }]);
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(["scripted-model-x", ...DEFAULT_MODELS]);
    expect((await client.models.retrieve("scripted-model-x")).owned_by).toBe("fake-llm");
  });
});

describe("/__script", () => {
  it("replaces the script from {rules} or a bare array and returns it with hit counters", async () => {
    let res = await postJson(`${root}/__script`, { rules: [{ respond: { content: "one" } }] });
    expect(res.status).toBe(200);
    res = await postJson(`${root}/__script`, [{ times: 1, respond: { content: "two" } }]);
    expect(res.status).toBe(200);
    const first = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(first.choices[0]?.message.content).toBe("two");
    const script = (await (await fetch(`${root}/__script`)).json()) as { rules: unknown[]; hits: number[] };
    expect(script.rules).toEqual([{ when: {}, times: 1, respond: { content: "two" } }]);
    expect(script.hits).toEqual([1]);
  });

  it("answers a bad script with 400 naming each field path, and keeps the old script", async () => {
    fake.setScript([{ respond: { content: "kept" } }]);
    const res = await postJson(`${root}/__script`, {
      rules: [
        { respond: { content: "ok" } },
        { when: { last_rol: "user" }, respond: { tool_calls: [{ arguments: 5 }] } },
      ],
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string; details: { path: string }[] } };
    expect(body.error.code).toBe("invalid_script");
    expect(body.error.details.map((d) => d.path)).toEqual([
      "rules[1].when",
      "rules[1].respond.tool_calls[0].name",
      "rules[1].respond.tool_calls[0].arguments",
    ]);
    expect(body.error.message).toContain('Unrecognized key: "last_rol"');
    expect(fake.getScript()).toEqual([{ when: {}, respond: { content: "kept" } }]);
  });

  it("setScript() throws a ScriptError with the field path", () => {
    expect(() => fake.setScript([{ times: 0 } as never])).toThrow(ScriptError);
    expect(() => fake.setScript([{ times: 0 } as never])).toThrow(/rules\[0\]\.times/);
  });
});

describe("request log", () => {
  it("logs every chat request in memory, over HTTP and as JSONL, with the full body and no auth value", async () => {
    fake.setScript([
      { when: { last_contains: "tool" }, respond: { tool_calls: [{ name: "t", arguments: {} }] } },
      { respond: { content: "fine" } },
    ]);
    fake.clearRequests();
    const tools = [{ type: "function" as const, function: { name: "t", parameters: { type: "object" } } }];
    await client.chat.completions.create({
      model: "m1",
      messages: [{ role: "user", content: "use the tool" }],
      tools,
      tool_choice: "auto",
      parallel_tool_calls: false,
      temperature: 0.2,
    });
    const stream = await client.chat.completions.create({
      model: "m2",
      messages: [{ role: "user", content: "plain" }],
      stream: true,
    });
    for await (const _chunk of stream) void _chunk;

    const viaHttp = await getRequests(fake.url);
    expect(viaHttp).toEqual(fake.getRequests());
    const [first, second] = viaHttp;
    expect(first).toMatchObject({
      model: "m1",
      stream: false,
      tools,
      tool_choice: "auto",
      parallel_tool_calls: false,
      headers: { authorization: true },
      matched: 0,
    });
    expect(first?.body.temperature).toBe(0.2);
    expect(first?.messages).toEqual([{ role: "user", content: "use the tool" }]);
    expect(second).toMatchObject({ model: "m2", stream: true, tools: null, matched: 1 });
    expect(second?.seq).toBe((first?.seq ?? 0) + 1);
    expect(Number.isNaN(Date.parse(second?.at ?? ""))).toBe(false);

    const lines = fs
      .readFileSync(path.join(dir, "nested", "requests.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as LoggedRequest);
    expect(lines.slice(-2)).toEqual(viaHttp);
    const fileText = fs.readFileSync(path.join(dir, "nested", "requests.jsonl"), "utf8");
    expect(fileText).not.toContain("sk-test-key");
    expect(fileText).toContain("use the tool");
  });

  it("clears the in-memory log over HTTP while the JSONL file keeps every request", async () => {
    const before = fs
      .readFileSync(path.join(dir, "nested", "requests.jsonl"), "utf8")
      .trim()
      .split("\n").length;
    fake.setScript([{ respond: { content: "x" } }]);
    await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect((await getRequests(fake.url)).length).toBeGreaterThan(0);
    await clearRequests(fake.url);
    expect(await getRequests(fake.url)).toEqual([]);
    const after = fs
      .readFileSync(path.join(dir, "nested", "requests.jsonl"), "utf8")
      .trim()
      .split("\n").length;
    expect(after).toBe(before + 1);
  });
});

describe("fake-llm-client", () => {
  it("sets the script over HTTP and reports a bad script with its field path", async () => {
    await setScript(fake.url, [{ when: { last_contains: "ping" }, respond: { content: "pong" } }]);
    const completion = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "ping" }],
    });
    expect(completion.choices[0]?.message.content).toBe("pong");
    expect((await getScript(`${root}/`)).hits).toEqual([1]);
    await expect(setScript(fake.url, [{ respond: { content: 5 } } as never])).rejects.toThrow(
      /400: .*rules\[0\]\.respond\.content/s,
    );
  });
});
