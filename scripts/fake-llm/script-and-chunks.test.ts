import { describe, expect, it } from "vitest";
import { buildAnswer, splitArguments, splitWords, streamChunks } from "./response-builder";
import { ScriptError, parseScript } from "./script-schema";

describe("parseScript", () => {
  it("accepts {rules} and a bare array alike, applying defaults", () => {
    const rules = [{ respond: { tool_calls: [{ name: "t" }] } }];
    expect(parseScript(rules)).toEqual(parseScript({ rules }));
    expect(parseScript(rules)[0]).toEqual({ when: {}, respond: { tool_calls: [{ name: "t", arguments: {} }] } });
  });

  it("reports paths relative to rules for both forms, with the source named", () => {
    const bad = [{ respond: {} }, { headers: { "retry-after": 1 } }];
    for (const input of [bad, { rules: bad }]) {
      try {
        parseScript(input, "my-script.json");
        throw new Error("expected a ScriptError");
      } catch (err) {
        expect(err).toBeInstanceOf(ScriptError);
        const scriptErr = err as ScriptError;
        expect(scriptErr.issues.map((i) => i.path)).toEqual(["rules[1].headers.retry-after"]);
        expect(scriptErr.message).toContain("my-script.json");
      }
    }
  });

  it("rejects a top-level value that is neither an array nor {rules}", () => {
    expect(() => parseScript({ rule: [] })).toThrow(/rules: Invalid input/);
  });
});

describe("stream chunking", () => {
  it("splits text into word pieces that concatenate back exactly", () => {
    for (const text of ["Hello world", "  leading and trailing  ", "line one\nline two", "one", ""]) {
      expect(splitWords(text).join("")).toBe(text);
    }
    expect(splitWords("a b c")).toEqual(["a", " b", " c"]);
  });

  it("splits arguments into at least two fragments of at most 16 characters", () => {
    expect(splitArguments("{}")).toEqual(["{", "}"]);
    expect(splitArguments("x")).toEqual(["x"]);
    const long = JSON.stringify({ text: "y".repeat(100) });
    const fragments = splitArguments(long);
    expect(fragments.join("")).toBe(long);
    expect(Math.max(...fragments.map((f) => f.length))).toBe(16);
  });

  it("puts the role in the first delta and finish_reason in the last choice chunk", () => {
    const answer = buildAnswer({ model: "m", messages: [{ role: "user", content: "x" }] }, { content: "a b" }, 1);
    const chunks = streamChunks(answer, false) as { choices: { delta: object; finish_reason: string | null }[] }[];
    expect(chunks.map((c) => c.choices[0]?.delta)).toEqual([
      { role: "assistant", content: "a" },
      { content: " b" },
      {},
    ]);
    expect(chunks.map((c) => c.choices[0]?.finish_reason)).toEqual([null, null, "stop"]);
  });

  it("streams an empty answer as one empty content delta", () => {
    const answer = buildAnswer({ model: "m", messages: [{ role: "user", content: "x" }] }, {}, 1);
    const chunks = streamChunks(answer, true) as { choices: { delta: object }[]; usage: unknown }[];
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 });
  });
});
