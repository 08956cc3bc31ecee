import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { runCli } from "@/server/cli/main";
import { startNpmRegistry, type NpmRegistry } from "../helpers/npm-registry";
import { api, projectRoot, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

const PKG = "@studio-test/writing-kit";
let registry: NpmRegistry;
let fake: FakeLlm;
let t: TestApp | undefined;
let tmp: string;

/** Runs a command to its end (asynchronously: the scripted model server shares this process). */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "packaging-publish-"));
  const started = performance.now();
  [registry, fake] = await Promise.all([startNpmRegistry(), startFakeLlm()]);
  console.log(`[packaging] verdaccio ready in ${Math.round(performance.now() - started)} ms`);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await registry?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("packaging an agent graph as an npm package", () => {
  it("packs writing_assistant with `npx studio`, publishes it to a local registry, installs it in a fresh project and runs a thread of it there", async () => {
    // No install scripts: `npx studio` in this repository installs it as a package with a fresh cache, and its
    // postinstall (`prisma generate`) would rewrite server/db/generated under the test files running beside this one.
    const env = {
      ...process.env,
      npm_config_userconfig: registry.userconfig,
      npm_config_cache: path.join(tmp, "npm-cache"),
      npm_config_update_notifier: "false",
      npm_config_ignore_scripts: "true",
    };
    const out = path.join(tmp, "pack");
    let last = performance.now();
    const lap = (step: string) => {
      const now = performance.now();
      console.log(`[packaging] ${step}: ${Math.round(now - last)} ms`);
      last = now;
    };
    const packed = await run("npx", ["studio", "pack", "writing_assistant", "--name", PKG, "--version", "1.0.0", "--out", out, "--tarball"], projectRoot, env);
    expect(packed.out).toContain(`Packed ${PKG}@1.0.0 (entry agent writing_assistant)`);
    expect(packed.code).toBe(0);
    expect(fs.existsSync(path.join(tmp, "studio-test-writing-kit-1.0.0.tgz"))).toBe(true);

    lap("npx studio pack --tarball");

    // The dry run in-process (the same command code, without a second process start); npm itself still runs.
    const lines: string[] = [];
    const dryCode = await runCli(["publish", "writing_assistant", "--name", PKG, "--version", "1.0.0", "--registry", registry.url, "--dry-run"], projectRoot, env, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(lines.join("\n")).toContain(`Dry run: ${PKG}@1.0.0`);
    expect(dryCode).toBe(0);
    lap("studio publish --dry-run");
    expect((await fetch(`${registry.url}${PKG.replace("/", "%2f")}`)).status).toBe(404);

    const published = await run("npx", ["studio", "publish", "writing_assistant", "--name", PKG, "--version", "1.0.0", "--registry", registry.url], projectRoot, env);
    expect(published.out).toContain(`Published ${PKG}@1.0.0`);
    expect(published.code).toBe(0);
    const doc = (await (await fetch(`${registry.url}${PKG.replace("/", "%2f")}`)).json()) as { versions: Record<string, { standardagent?: unknown }> };
    expect(doc.versions["1.0.0"]?.standardagent).toEqual(expect.objectContaining({ entryAgents: ["writing_assistant"] }));
    lap("npx studio publish");

    // A fresh project that knows nothing of this repository's agents/: an empty agents folder and the installed package.
    const fresh = path.join(tmp, "fresh");
    fs.mkdirSync(path.join(fresh, "agents"), { recursive: true });
    fs.writeFileSync(path.join(fresh, "package.json"), JSON.stringify({ name: "fresh-project", version: "1.0.0", private: true }));
    const installed = await run("npm", ["install", `${PKG}@1.0.0`, "--registry", registry.url, "--no-audit", "--no-fund"], fresh, env);
    expect(installed.code, installed.out).toBe(0);
    expect(fs.existsSync(path.join(fresh, "node_modules", PKG, "agents/agents/writing_assistant.ts"))).toBe(true);
    lap("npm install in a fresh project");

    t = await startTestApp({ agentsDir: path.join(fresh, "agents"), env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    const agents = (await api(t.url, "GET", "/api/agents")).body;
    expect(JSON.stringify(agents)).toContain(`${PKG}/writing_assistant`);
    expect((await api(t.url, "GET", "/api/diagnostics")).body.diagnostics.filter((d: { severity: string }) => d.severity === "error")).toEqual([]);
    lap("app start on the fresh project");

    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "word_count", arguments: { text: "one two three" } }] } },
      { when: { last_role: "tool", any_contains: "word" }, times: 1, respond: { tool_calls: [{ name: "save_note", arguments: { title: "Count result", content: "It has three words." } }] } },
      { respond: { content: "Your text has 3 words." } },
    ]);
    const created = await api(t.url, "POST", "/api/threads", { agent_id: `${PKG}/writing_assistant` });
    expect(created.status).toBe(201);
    const id = created.body.threadId as string;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "How many words in 'one two three'?" });
    await waitForThread(t.url, id, ["idle"], 30_000);
    const messages = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages as { role: string; content: string; tool_status?: string }[];
    const tools = messages.filter((m) => m.role === "tool");
    expect(tools.map((m) => m.tool_status)).toEqual(["success", "success"]);
    expect(tools[0]?.content).toMatch(/3/);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "Your text has 3 words." });

    lap("thread of the installed agent");

    // The package's thread endpoint is mounted under the thread, in the package's namespace.
    const note = await fetch(`${t.url}/api/threads/${id}/packages/${PKG}/notes/count-result`);
    expect(note.status).toBe(200);
    expect(await note.text()).toContain("It has three words.");

    // The model saw the package's prompt and its tools under names a provider accepts.
    const first = fake.getRequests()[0]!;
    expect(String(first.messages[0]!.content)).toContain("You are a writing assistant.");
    expect((first.tools ?? []).map((x) => x.function?.name).sort()).toEqual(["current_time", "draft_and_review", "polish_text", "save_note", "word_count"]);
  }, 600_000);
});
