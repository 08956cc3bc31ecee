import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm, type Rule } from "../../scripts/fake-llm/server";
import { runCli } from "@/server/cli/main";
import { api, projectRoot, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

const EVAL = "writing_assistant_basics";
let fake: FakeLlm;
let t: TestApp;

/** The scripted answers of the example eval: a judge verdict, the word count via the tool, and a greeting. */
function script(greeting: string): Rule[] {
  return [
    { when: { system_contains: "evaluation judge" }, respond: { content: '{"score": 0.9, "reason": "Answers the request directly."}' } },
    { when: { last_role: "user", last_contains: "one two three" }, respond: { tool_calls: [{ name: "word_count", arguments: { text: "one two three" } }] } },
    { when: { last_role: "tool" }, respond: { content: "Your text has 3 words." } },
    { when: { last_contains: "say hello" }, respond: { content: greeting } },
  ];
}

async function runExperiment(body: unknown = {}): Promise<{ experiment: any; results: any[] }> {
  const started = await api(t.url, "POST", `/api/evals/${EVAL}/experiments`, body);
  expect(started.status).toBe(202);
  expect(started.body.experiment.status).toBe("running");
  return waitFor(async () => {
    const { body: got } = await api(t.url, "GET", `/api/experiments/${started.body.experiment.id}`);
    return got.experiment.status !== "running" ? got : undefined;
  }, 30_000);
}

async function cli(args: string[], cwd: string, env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, cwd, env as NodeJS.ProcessEnv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("evals against the scripted model server", () => {
  let first: { experiment: any; results: any[] };

  it("lists the shipped eval and runs it over REST: each case a real thread tagged with the experiment, scored and costed", async () => {
    const listed = await api(t.url, "GET", "/api/evals");
    expect(listed.body.evals).toContainEqual(expect.objectContaining({ name: EVAL, agent: "writing_assistant", cases: 2, cases_file: "evals/writing_assistant_basics.jsonl" }));
    fake.setScript(script("Hello! Happy to help."));
    first = await runExperiment();
    const { experiment, results } = first;
    expect(experiment.status).toBe("passed");
    expect(experiment.summary).toMatchObject({ cases: 2, passed: 2, passRate: 1, misses: [] });
    expect(experiment.summary.scorers.helpful.mean).toBeCloseTo(0.9);
    expect(results.map((r: any) => [r.case_id, r.status, r.passed])).toEqual([["count_words", "done", true], ["greeting", "done", true]]);
    const count = results[0];
    expect(count.reply).toBe("Your text has 3 words.");
    expect(count.steps).toBe(2);
    expect(count.cost_usd).toBeGreaterThan(0);
    expect(count.judge_cost_usd).toBeGreaterThan(0);
    expect(count.input_tokens).toBeGreaterThan(0);
    expect(count.scores.find((s: any) => s.scorer === "uses_expected_tool")).toMatchObject({ score: 1, reason: "word_count was called" });
    const thread = (await api(t.url, "GET", `/api/threads/${count.thread_id}`)).body.thread;
    expect(thread.tags).toContain(`experiment:${experiment.id}`);
    expect(thread.agent_id).toBe("writing_assistant");
    // The thread's own cost (request log) is what the case recorded; the judge's requests are not in the thread's log.
    const cost = (await api(t.url, "GET", `/api/threads/${count.thread_id}/cost`)).body;
    expect(cost.subtree.cost).toBeCloseTo(count.cost_usd, 10);
    expect(fake.getRequests().filter((r) => String(r.messages[0]?.content).includes("evaluation judge"))).toHaveLength(2);
  });

  it("a changed prompt and a worse reply: the second experiment misses a threshold, and compare shows per-case deltas and the prompt's diff", async () => {
    const promptFile = path.join(t.agentsDir, "prompts/writing_assistant.ts");
    fs.writeFileSync(promptFile, fs.readFileSync(promptFile, "utf8").replace("You are a writing assistant.", "You are a terse writing assistant."));
    await waitFor(async () => (await api(t.url, "GET", "/api/agents")).status === 200 && fs.readFileSync(promptFile, "utf8").includes("terse"));
    await new Promise((r) => setTimeout(r, 600)); // the registry's debounced reload
    fake.setScript(script("Goodbye."));
    const second = await runExperiment({ concurrency: 1 });
    expect(second.experiment.status).toBe("failed");
    expect(second.experiment.concurrency).toBe(1);
    expect(second.experiment.summary.misses).toEqual([{ name: "passRate", threshold: 1, actual: 0.5 }]);
    const greeting = second.results[1];
    expect(greeting.passed).toBe(false);
    expect(greeting.scores.find((s: any) => s.scorer === "mentions_expected")).toMatchObject({ score: 0, reason: 'the reply does not contain "hello"' });

    const listed = (await api(t.url, "GET", `/api/experiments?eval=${EVAL}`)).body;
    expect(listed.experiments.map((e: any) => e.id)).toEqual([second.experiment.id, first.experiment.id]);
    expect(listed.total).toBe(2);
    const cmp = (await api(t.url, "GET", `/api/experiments/compare?a=${first.experiment.id}&b=${second.experiment.id}`)).body;
    expect(cmp.cases.find((c: any) => c.caseId === "greeting")).toMatchObject({ deltas: { mentions_expected: -1 }, a: { passed: true, reply: "Hello! Happy to help." }, b: { passed: false, reply: "Goodbye." } });
    expect(cmp.cases.find((c: any) => c.caseId === "count_words").deltas.mentions_expected).toBe(0);
    expect(cmp.definition_diff).toHaveLength(1);
    expect(cmp.definition_diff[0]).toMatchObject({ file: "prompts/writing_assistant.ts", status: "changed" });
    expect(cmp.definition_diff[0].patch).toContain("-You are a writing assistant.");
    expect(cmp.definition_diff[0].patch).toContain("+You are a terse writing assistant.");
  });

  it("a case's attachments are sent with its last user message", async () => {
    fs.writeFileSync(path.join(t.agentsDir, "evals/note.txt"), "one two three");
    fs.writeFileSync(
      path.join(t.agentsDir, "evals/with_file.ts"),
      `import { defineEval, scorers } from "@studio/spec";\nexport default defineEval({ name: "with_file", agent: "writing_assistant", cases: [{ id: "file", input: "Read the attached note.", attachments: [{ file: "./note.txt" }] }], scorers: [scorers.contains("note")] });\n`,
    );
    await waitFor(async () => (await api(t.url, "GET", "/api/evals")).body.evals.some((e: any) => e.name === "with_file"));
    fake.setScript([{ when: { last_role: "user" }, respond: { content: "I read your note." } }]);
    const started = await api(t.url, "POST", "/api/evals/with_file/experiments", {});
    const done = await waitFor(async () => {
      const { body } = await api(t.url, "GET", `/api/experiments/${started.body.experiment.id}`);
      return body.experiment.status !== "running" ? body : undefined;
    }, 30_000);
    expect(done.experiment.status).toBe("passed");
    const messages = (await api(t.url, "GET", `/api/threads/${done.results[0].thread_id}/messages`)).body.messages;
    const user = messages.find((m: any) => m.role === "user");
    expect(user.content).toBe("Read the attached note.");
    expect(user.attachments.map((a: any) => [a.name, a.mimeType])).toEqual([["note.txt", "text/plain"]]);
    const file = await fetch(`${t.url}/api/threads/${done.results[0].thread_id}/fs${user.attachments[0].path}`);
    expect(await file.text()).toBe("one two three");
  });

  it("an experiment whose process stopped (no heartbeat) ends as an error, its unfinished cases too", async () => {
    const queries = t.app.queries.experiments;
    const orphan = await queries.create({ evalName: EVAL, agentId: "writing_assistant", concurrency: 1, definition: {}, sources: {}, createdBy: null, cases: [{ caseId: "a", input: { input: "x" } }] });
    // Fresh heartbeat: still running.
    expect((await api(t.url, "GET", `/api/experiments/${orphan.id}`)).body.experiment.status).toBe("running");
    expect(await queries.failStale(new Date(Date.now() + 1000))).toContain(orphan.id);
    const got = (await api(t.url, "GET", `/api/experiments/${orphan.id}`)).body;
    expect(got.experiment).toMatchObject({ status: "error", error: expect.stringContaining("interrupted") });
    expect(got.results[0]).toMatchObject({ status: "error", passed: false });
    expect(await queries.failStale(new Date(Date.now() + 1000))).not.toContain(orphan.id);
  });

  it("answers bad input with 4xx and the field", async () => {
    expect((await api(t.url, "POST", "/api/evals/nope/experiments", {})).status).toBe(404);
    const bad = await api(t.url, "POST", `/api/evals/${EVAL}/experiments`, { concurrency: 0 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toContain("concurrency");
    expect((await api(t.url, "GET", "/api/experiments/compare?a=x")).status).toBe(400);
    expect((await api(t.url, "GET", "/api/experiments/does-not-exist")).status).toBe(404);
  });

  it("`studio eval --url` runs it on the running app: exit 1 when a threshold is missed, 0 when every threshold holds; --model runs every prompt on another model", async () => {
    fake.setScript(script("Goodbye."));
    const failed = await cli(["eval", EVAL, "--url", t.url], projectRoot);
    expect(failed.code).toBe(1);
    expect(failed.out).toContain("FAIL greeting");
    expect(failed.out).toContain("mentions_expected: the reply does not contain");
    expect(failed.out).toContain("Threshold missed: passRate is 50%, below 100%");
    fake.setScript(script("Hello there!"));
    const passed = await cli(["eval", EVAL, "--url", t.url, "--concurrency", "2"], projectRoot);
    expect(passed.out).toContain("PASSED");
    expect(passed.code).toBe(0);
    fake.clearRequests();
    const other = await cli(["eval", EVAL, "--url", t.url, "--model", "careful"], projectRoot);
    expect(other.code).toBe(0);
    expect(other.out).toContain("on model careful");
    const agentRequests = fake.getRequests().filter((r) => !String(r.messages[0]?.content).includes("evaluation judge"));
    expect(agentRequests.length).toBe(3);
    expect(new Set(agentRequests.map((r) => r.model))).toEqual(new Set(["gpt-4.1"]));
    const unknownModel = await cli(["eval", EVAL, "--url", t.url, "--model", "nope"], projectRoot);
    expect(unknownModel.code).toBe(1);
    expect(unknownModel.err).toContain('no model definition is named "nope"');
    expect((await cli(["eval"], projectRoot)).code).toBe(2);
    expect((await cli(["eval", EVAL, "--concurrency", "zero", "--url", t.url], projectRoot)).err).toContain("--concurrency must be a whole number");
  });

  it("`studio eval` without --url starts the runtime in-process on the project's database", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "studio-eval-cli-"));
    try {
      fs.cpSync(path.join(projectRoot, "agents"), path.join(root, "agents"), { recursive: true });
      fake.setScript(script("Hello!"));
      const env = { DATA_DIR: path.join(root, "data"), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", SECRETS_KEY: "22".repeat(32), NODE_ENV: "test" };
      const r = await cli(["eval", EVAL, "--json"], root, env);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      const report = JSON.parse(r.out);
      expect(report.experiment).toMatchObject({ eval: EVAL, status: "passed" });
      expect(report.results).toHaveLength(2);
      expect(fs.existsSync(path.join(root, "data/app.db"))).toBe(true);
      const unknown = await cli(["eval", "nope"], root, env);
      expect(unknown.code).toBe(1);
      expect(unknown.err).toContain(`No eval named "nope"`);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("saves a chat thread as a case of the eval: its conversation and reply appended to the JSONL file, reloaded", async () => {
    fake.setScript([{ when: { last_contains: "Summarise" }, respond: { content: "A short summary." } }]);
    const created = await api(t.url, "POST", "/api/threads", { agent_id: "writing_assistant", initial_messages: [{ role: "user", content: "Summarise: the cat sat." }] });
    const id = created.body.threadId;
    await waitFor(async () => ((await api(t.url, "GET", `/api/threads/${id}`)).body.thread.status === "idle" ? true : undefined));
    const saved = await api(t.url, "POST", `/api/evals/${EVAL}/cases`, { thread_id: id, id: "summary" });
    expect(saved.status).toBe(201);
    expect(saved.body).toEqual({ case: { id: "summary", input: "Summarise: the cat sat.", expected: "A short summary.", metadata: { source_thread: id } }, file: "evals/writing_assistant_basics.jsonl" });
    const lines = fs.readFileSync(path.join(t.agentsDir, "evals/writing_assistant_basics.jsonl"), "utf8").trim().split("\n");
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ id: "summary", expected: "A short summary." });
    expect((await api(t.url, "GET", "/api/evals")).body.evals.find((e: any) => e.name === EVAL).cases).toBe(3);
    const again = await api(t.url, "POST", `/api/evals/${EVAL}/cases`, { thread_id: id, id: "summary" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('already has a case "summary"');
    expect((await api(t.url, "POST", `/api/evals/${EVAL}/cases`, { thread_id: "nope" })).status).toBe(404);
    expect((await api(t.url, "POST", `/api/evals/${EVAL}/cases`, {})).status).toBe(400);
  });
});
