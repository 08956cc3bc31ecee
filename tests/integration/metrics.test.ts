import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { client, newUser, signIn, type As } from "../helpers/accounts";
import { fixtureAgents, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;
let admin: As;
let alice: As;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-12345" } });
  admin = await signIn(t.url, "admin", "pw-admin-12345");
  alice = await newUser(t.url, admin, "alice");
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** Prometheus text: `# HELP`/`# TYPE` comments and `name{labels} value` samples, nothing else. */
function parsePrometheus(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.eE+-]+|NaN|[+-]Inf)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    samples.set(`${m[1]}${m[2] ?? ""}`, Number(m[3]));
  }
  return samples;
}

describe("GET /api/metrics", () => {
  it("counts steps, model requests with tokens and cost by model, and tool calls, in Prometheus text", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "hi" } }] } },
      { when: { last_role: "tool" }, respond: { content: "Echoed." } },
    ]);
    const id = (await admin("POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    await admin("POST", `/api/threads/${id}/messages`, { content: "echo hi" });
    await waitFor(async () => ((await admin("GET", `/api/threads/${id}/messages`)).body.messages as any[]).at(-1)?.content === "Echoed.");
    const res = await admin("GET", "/api/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const m = parsePrometheus(res.body as string);
    expect(m.get('studio_llm_requests_total{model="primary",status="success"}')).toBe(2);
    expect(m.get('studio_tool_calls_total{tool="echo",status="success"}')).toBe(1);
    expect(m.get('studio_steps_total{side="a"}')).toBe(2);
    expect(m.get('studio_step_duration_seconds_count{side="a"}')).toBe(2);
    expect(m.get('studio_step_duration_seconds_sum{side="a"}')).toBeGreaterThan(0);
    expect(m.get('studio_activations_total')).toBeGreaterThanOrEqual(1);
    expect(m.get('studio_llm_latency_seconds_count{model="primary"}')).toBe(2);
    const input = m.get('studio_llm_tokens_total{model="primary",direction="input"}')!;
    const output = m.get('studio_llm_tokens_total{model="primary",direction="output"}')!;
    expect(input).toBeGreaterThan(0);
    // primary: $1 in / $2 out per million tokens.
    expect(m.get('studio_llm_cost_usd_total{model="primary"}')).toBeCloseTo((input * 1 + output * 2) / 1e6, 12);
    expect(m.has('studio_queue_depth{state="pending"}')).toBe(true);
    expect(m.has("studio_process_resident_memory_bytes")).toBe(true);
  });

  it("is for administrators: a user, an anonymous caller and a key without the metrics scope are refused", async () => {
    expect((await alice("GET", "/api/metrics")).status).toBe(403);
    expect((await client(t.url, "")("GET", "/api/metrics")).status).toBe(401);
    const plain = await admin("POST", "/api/auth/keys", { name: "reader", scopes: ["threads:read"] });
    expect((await client(t.url, plain.body.key)("GET", "/api/metrics")).status).toBe(403);
    const scraper = await admin("POST", "/api/auth/keys", { name: "scraper", scopes: ["metrics"] });
    expect((await client(t.url, scraper.body.key)("GET", "/api/metrics")).status).toBe(200);
    const refused = await alice("POST", "/api/auth/keys", { name: "mine", scopes: ["metrics"] });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain("scopes");
  });
});
