import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, type TestApp } from "../helpers/test-app";

/** `GET /api/providers/:name/models`: each built-in provider's SDK lists the scripted server's models; a custom one its own. */
let fake: FakeLlm;
let t: TestApp;
let agentsDir: string;

beforeAll(async () => {
  fake = await startFakeLlm({ script: [{ when: { model: "scripted-extra" }, respond: { content: "x" } }] });
  agentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "provider-models-"));
  fs.cpSync(fixtureAgents, agentsDir, { recursive: true });
  for (const f of ["anthropic-provider", "google-provider", "openai-responses-provider", "custom-provider"]) {
    fs.cpSync(path.join(import.meta.dirname, "../fixtures", f), agentsDir, { recursive: true });
  }
  fs.writeFileSync(
    path.join(agentsDir, "models/dead.ts"),
    `import { defineModel } from "@studio/spec";\n\nexport default defineModel({ name: "dead", provider: "openai", model: "x", baseURL: "http://127.0.0.1:9/v1" });\n`,
  );
  const root = fake.url.replace(/\/v1$/, "");
  t = await startTestApp({ agentsSource: agentsDir, env: { OPENAI_BASE_URL: fake.url, ANTHROPIC_BASE_URL: root, GEMINI_BASE_URL: root, GEMINI_API_KEY: "gm-key" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  fs.rmSync(agentsDir, { recursive: true, force: true });
});

describe("GET /api/providers/:name/models", () => {
  it("lists the models of every built-in provider through its SDK", async () => {
    for (const provider of ["openai", "openai-responses", "anthropic"]) {
      const res = await api(t.url, "GET", `/api/providers/${provider}/models`);
      expect(res.status, provider).toBe(200);
      expect(res.body.provider).toBe(provider);
      expect(res.body.models.map((m: any) => m.id)).toEqual(expect.arrayContaining(["scripted-extra", "gpt-4.1-mini"]));
    }
    const anthropic = await api(t.url, "GET", "/api/providers/anthropic/models");
    expect(anthropic.body.models[0]).toEqual({ id: "scripted-extra", name: "scripted-extra (scripted)" });
    const google = await api(t.url, "GET", "/api/providers/google/models");
    expect(google.status).toBe(200);
    expect(google.body.models[0]).toEqual({ id: "scripted-extra", name: "scripted-extra (scripted)", contextLength: 1_048_576 });
  });

  it("lists a custom provider's models, and a model definition's endpoint with ?model=", async () => {
    const custom = await api(t.url, "GET", "/api/providers/local_echo/models");
    expect(custom.status).toBe(200);
    expect(custom.body.models).toEqual([{ id: "echo-1", name: "Echo", contextLength: 4096 }]);
    const byModel = await api(t.url, "GET", "/api/providers/google/models?model=gemini");
    expect(byModel.status).toBe(200);
    expect(byModel.body.models.length).toBeGreaterThan(0);
  });

  it("answers an unknown provider with 404, a model of another provider with 400, a dead endpoint with 502", async () => {
    const unknown = await api(t.url, "GET", "/api/providers/nope/models");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain("agents/providers/");
    const other = await api(t.url, "GET", "/api/providers/google/models?model=claude");
    expect(other.status).toBe(400);
    expect(other.body.error.message).toContain('uses provider "anthropic"');
    const missing = await api(t.url, "GET", "/api/providers/google/models?model=missing");
    expect(missing.status).toBe(404);
    const down = await api(t.url, "GET", "/api/providers/openai/models?model=dead");
    expect(down.status).toBe(502);
    expect(down.body.error.message).toMatch(/openai: listing models failed: connection error/);
  });
});

describe("GET /api/providers", () => {
  it("names each built-in provider's own key variable and endpoint", async () => {
    const res = await api(t.url, "GET", "/api/providers");
    expect(res.status).toBe(200);
    const byProvider = (p: string) => res.body.providers.find((r: any) => r.provider === p);
    const root = fake.url.replace(/\/v1$/, "");
    expect(byProvider("anthropic")).toMatchObject({ base_url: root, key_variable: "ANTHROPIC_API_KEY", key_status: "not configured", models: ["claude"] });
    expect(byProvider("google")).toMatchObject({ base_url: root, key_variable: "GEMINI_API_KEY", key_status: "configured", models: ["gemini"] });
    expect(byProvider("openai-responses")).toMatchObject({ base_url: fake.url, key_variable: "OPENAI_API_KEY", models: ["reasoner"] });
    expect(byProvider("local_echo")).toMatchObject({ base_url: "(set by the provider)", models: ["local"] });
  });
});
