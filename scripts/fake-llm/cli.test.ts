import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseCliOptions } from "./cli-options";
import { getRequests, setScript } from "./fake-llm-client";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const main = path.join(import.meta.dirname, "main.ts");

let dir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-llm-cli-"));
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGTERM");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(tsx, [main, ...args], {
    cwd: root,
    env: { ...process.env, FAKE_LLM_PORT: "", FAKE_LLM_SCRIPT: "", FAKE_LLM_LOG: "", ...env },
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", () => {
      const url = /fake-llm listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(stdout)?.[1];
      if (url && stdout.includes("Stop with Ctrl+C.")) resolve(url);
    });
    void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  listening.catch(() => undefined); // observed only by the tests that wait for it
  return { child, listening, exited, output: () => ({ stdout, stderr }) };
}

describe("npm run fake-llm", () => {
  it("serves the script file, writes the log file and says it is scripted", async () => {
    const scriptFile = path.join(dir, "rules.json");
    const logFile = path.join(dir, "requests.jsonl");
    fs.writeFileSync(scriptFile, JSON.stringify({ rules: [{ respond: { content: "from the file" } }] }));
    const proc = run(["--port", "0", "--script", scriptFile], { FAKE_LLM_LOG: logFile });
    const url = await proc.listening;
    expect(proc.output().stdout).toContain("scripted");

    const client = new OpenAI({ baseURL: url, apiKey: "test", maxRetries: 0 });
    const first = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "a" }] });
    expect(first.choices[0]?.message.content).toBe("from the file");

    await setScript(url, [{ respond: { content: "replaced over HTTP" } }]);
    const second = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "b" }] });
    expect(second.choices[0]?.message.content).toBe("replaced over HTTP");

    const requests = await getRequests(url);
    expect(requests.map((r) => r.messages[0]?.content)).toEqual(["a", "b"]);
    const lines = fs.readFileSync(logFile, "utf8").trim().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([1, 2]);

    proc.child.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  });

  it("exits with a message naming the file and the field path for a bad script", async () => {
    const scriptFile = path.join(dir, "bad.json");
    fs.writeFileSync(scriptFile, JSON.stringify([{ respond: { tool_calls: [{ name: "" }] } }]));
    const proc = run(["--port", "0"], { FAKE_LLM_SCRIPT: scriptFile });
    expect(await proc.exited).toBe(1);
    const { stderr } = proc.output();
    expect(stderr).toContain(scriptFile);
    expect(stderr).toContain("rules[0].respond.tool_calls[0].name");
  });
});

describe("parseCliOptions", () => {
  it("defaults to port 4010 and prefers flags over the environment", () => {
    expect(parseCliOptions([], {})).toEqual({ port: 4010, scriptFile: undefined, logFile: undefined, help: false });
    expect(parseCliOptions([], { FAKE_LLM_PORT: "5000", FAKE_LLM_SCRIPT: "s.json", FAKE_LLM_LOG: "l.jsonl" })).toEqual({
      port: 5000,
      scriptFile: "s.json",
      logFile: "l.jsonl",
      help: false,
    });
    expect(parseCliOptions(["--port", "6000", "--log", "x.jsonl"], { FAKE_LLM_PORT: "5000" })).toMatchObject({
      port: 6000,
      logFile: "x.jsonl",
    });
  });

  it("rejects a bad port naming where it came from", () => {
    expect(() => parseCliOptions(["--port", "abc"], {})).toThrow(/--port must be a port number/);
    expect(() => parseCliOptions([], { FAKE_LLM_PORT: "70000" })).toThrow(/FAKE_LLM_PORT must be a port number/);
  });
});
