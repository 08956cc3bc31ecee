import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeAgentsDir, removeDir } from "@/server/registry/test-fixtures";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { runCli } from "./main";

/** `studio models <provider>`: the provider SDKs list the scripted server's models; the key and URL come from the environment. */
let fake: FakeLlm;
const dirs: string[] = [];
beforeAll(async () => {
  fake = await startFakeLlm({ script: [{ when: { model: "listed-first" }, respond: { content: "x" } }] });
});
afterAll(() => fake?.close());
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeDir(d);
});

async function run(args: string[], env: Record<string, string>) {
  const root = await makeAgentsDir({
    "agents/models/gem.ts": `export default { name: "gem", provider: "google", model: "gemini-x", baseURL: "${fake.url.replace(/\/v1$/, "")}", apiKeyEnv: "MY_GEMINI_KEY" };`,
  });
  dirs.push(root);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, root, env as NodeJS.ProcessEnv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("studio models", () => {
  it("lists a built-in provider's models from its variables", async () => {
    const r = await run(["models", "anthropic"], { ANTHROPIC_BASE_URL: fake.url.replace(/\/v1$/, ""), ANTHROPIC_API_KEY: "k" });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[0]).toBe("listed-first  listed-first (scripted)");
    expect(r.out).toMatch(/anthropic: \d+ models\./);
  });

  it("lists through a model definition's endpoint as JSON", async () => {
    const r = await run(["models", "google", "--model", "gem", "--json"], { MY_GEMINI_KEY: "k" });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body.provider).toBe("google");
    expect(body.models[0]).toEqual({ id: "listed-first", name: "listed-first (scripted)", contextLength: 1_048_576 });
  });

  it("says what is wrong with an unknown provider, a missing name or an unreachable endpoint", async () => {
    expect((await run(["models", "nope"], {})).err).toMatch(/neither built in .* nor defined in providers\/nope\.ts/);
    expect((await run(["models"], {})).code).toBe(2);
    const dead = await run(["models", "openai"], { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(dead.code).toBe(1);
    expect(dead.err).toMatch(/Listing the models of "openai" failed: .*connection error/);
  });
});
