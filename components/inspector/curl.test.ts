import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { curlCommand } from "./curl";

/** Run the command in a real shell with `curl` replaced by a function that prints each argument it got. */
function argsOf(command: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync("bash", ["-c", `curl() { printf '%s\\0' "$@"; }\n${command}`], {
    env: { ...process.env, ...env },
  });
  return out.toString("utf8").split("\0").slice(0, -1);
}

describe("curlCommand", () => {
  it("a shell gets the exact body back, quotes and all, and the key from its variable", () => {
    const body = {
      model: "gpt-x",
      messages: [{ role: "user", content: `it's "quoted" $HOME \`id\` \\ ünïcode\nline 2` }],
      stream: true,
    };
    const cmd = curlCommand("https://api.example.com/v1/chat/completions", "OPENAI_API_KEY", body);
    const args = argsOf(cmd, { OPENAI_API_KEY: "sk-test", HOME: "/should/not/expand" });
    expect(args[0]).toBe("https://api.example.com/v1/chat/completions");
    expect(args).toContain("Authorization: Bearer sk-test");
    expect(JSON.parse(args[args.indexOf("--data-binary") + 1]!)).toEqual(body);
  });
  it("never contains a key value, only the variable's name", () => {
    const cmd = curlCommand("http://127.0.0.1:8000/v1/chat/completions", "MY_KEY", { a: 1 });
    expect(cmd).toContain("$MY_KEY");
    expect(cmd).not.toMatch(/sk-/);
  });
});
