import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, waitFor, type TestApp } from "../helpers/test-app";
import { testDatabaseKind } from "@/server/db/test-database";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = async (p: string) => {
  const res = await fetch(`${t.url}${p}`);
  return { status: res.status, body: (await res.json()) as any };
};

describe("GET /api/health", () => {
  it("reports the database, the registry and whether an LLM is configured", async () => {
    const { status, body } = await get("/api/health");
    expect(status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.database).toMatchObject({ ok: true, kind: testDatabaseKind() });
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(body.registry.agents).toBeGreaterThanOrEqual(2);
    expect(body.registry.errors).toBe(0);
    expect(body.llm.configured).toBe(false);
    expect(body.llm.hint).toContain("OPENAI_API_KEY");
  });
});

describe("GET /api/agents", () => {
  it("lists the example agents with type, sides and exposeAsTool", async () => {
    const { status, body } = await get("/api/agents");
    expect(status).toBe(200);
    const byName = Object.fromEntries(body.agents.map((a: any) => [a.name, a]));
    expect(byName.writing_assistant).toMatchObject({ type: "ai_human", exposeAsTool: false });
    expect(byName.writing_assistant.sides.a.prompt).toBe("writing_assistant");
    expect(byName.draft_and_review).toMatchObject({ type: "dual_ai", exposeAsTool: true });
    expect(byName.draft_and_review.sides.b.prompt).toBeTruthy();
    expect(Array.isArray(byName.writing_assistant.requiredVariables)).toBe(true);
  });
});

describe("GET /api/diagnostics", () => {
  it("is empty for the example graph", async () => {
    const { status, body } = await get("/api/diagnostics");
    expect(status).toBe(200);
    expect(body.diagnostics).toEqual([]);
  });

  it("reports a broken file with file, field and message, keeps the rest, and clears once fixed", async () => {
    const file = path.join(t.agentsDir, "agents", "half_done.ts");
    fs.writeFileSync(file, `export default { type: "dual_ai", sideA: { prompt: "drafter" } };\n`);
    const diags = await waitFor(async () => {
      const { body } = await get("/api/diagnostics");
      const mine = body.diagnostics.filter((d: any) => d.file === "agents/half_done.ts");
      return mine.length > 0 ? mine : undefined;
    });
    expect(diags.some((d: any) => d.field === "name" && d.severity === "error")).toBe(true);
    expect(diags.every((d: any) => typeof d.message === "string" && d.message.length > 0)).toBe(true);
    const agents = (await get("/api/agents")).body.agents.map((a: any) => a.name);
    expect(agents).toContain("writing_assistant");

    fs.rmSync(file);
    await waitFor(async () => (await get("/api/diagnostics")).body.diagnostics.length === 0);
  });
});

describe("errors", () => {
  it("answers an unknown route with a JSON 404 and a wrong method with 405", async () => {
    const missing = await get("/api/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("NOT_FOUND");
    const res = await fetch(`${t.url}/api/agents`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(((await res.json()) as any).error.code).toBe("METHOD_NOT_ALLOWED");
  });
});
