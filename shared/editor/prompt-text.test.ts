import { describe, expect, it } from "vitest";
import type { DocValue } from "./doc";
import { promptTextIssues, promptToText, promptTokens, textToPrompt, type PromptTextContext } from "./prompt-text";

const ctx: PromptTextContext = {
  self: "drafter",
  tools: ["word_count", "save_note"],
  prompts: ["drafter", "house_style"],
  agents: ["draft_and_review"],
  variables: ["SUPPORT_REGION"],
  offered: ["word_count"],
};

describe("prompt text", () => {
  it("round-trips parts through the editor text", () => {
    const parts: DocValue[] = [
      { type: "text", content: "Write for " },
      { type: "env", property: "SUPPORT_REGION" },
      { type: "text", content: ".\n" },
      { type: "include", prompt: "house_style" },
    ];
    const text = promptToText(parts);
    expect(text).toBe("Write for {{SUPPORT_REGION}}.\n{{> house_style}}");
    expect(textToPrompt(text)).toEqual(parts);
  });

  it("keeps a prompt without variables or includes a plain string, mentions included", () => {
    expect(textToPrompt("Count words with @word_count.")).toBe("Count words with @word_count.");
    expect(promptToText("Plain.")).toBe("Plain.");
  });

  it("finds tokens, and not e-mail addresses", () => {
    expect(promptTokens("Ask @save_note, not me@example.com; {{ X }} {{>house_style}}").map((t) => [t.kind, t.name])).toEqual([
      ["mention", "save_note"],
      ["env", "X"],
      ["include", "house_style"],
    ]);
  });

  it("reports undefined variables, unknown and self includes, unknown and unoffered tools, at their place", () => {
    const text = "Use @word_count and @save_note and @nope. Region {{SUPPORT_REGION}}, city {{CITY}}. {{> missing}} {{> drafter}}";
    const issues = promptTextIssues(text, ctx);
    expect(issues.map((i) => [text.slice(i.from, i.to), i.severity])).toEqual([
      ["@save_note", "warning"],
      ["@nope", "warning"],
      ["{{CITY}}", "warning"],
      ["{{> missing}}", "error"],
      ["{{> drafter}}", "error"],
    ]);
    expect(issues[0]!.message).toContain("not in this prompt's tools");
    expect(issues[1]!.message).toContain('Unknown tool "nope"');
    expect(issues[2]!.message).toContain('Variable "CITY" is not defined');
  });
});
