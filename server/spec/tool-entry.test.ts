import { describe, expect, it } from "vitest";
import { formatZodIssues } from "./format-issues";
import {
  fieldsNotAllowedFor,
  hasSubagentFields,
  hasSubpromptFields,
  hasToolConfigFields,
  normalizeToolEntry,
  subagentToolConfigSchema,
  toolEntryName,
  toolEntrySchema,
} from "./tool-entry";

function issues(value: unknown) {
  const r = toolEntrySchema.safeParse(value);
  if (r.success) throw new Error("expected the value to be rejected");
  return formatZodIssues(r.error.issues, value);
}

describe("toolEntrySchema", () => {
  it("accepts a plain name", () => {
    expect(toolEntrySchema.parse("word_count")).toBe("word_count");
  });

  it("accepts the spec's subagent example (browser_agent, non-blocking, resumable)", () => {
    const entry = toolEntrySchema.parse({
      name: "browser_agent",
      blocking: false,
      resumable: { receives_messages: "side_a", maxInstances: 1 },
    });
    expect(entry).toEqual({
      name: "browser_agent",
      blocking: false,
      resumable: { receives_messages: "side_a", maxInstances: 1 },
    });
    expect(hasSubagentFields(entry)).toBe(true);
  });

  it("accepts every subagent field, including immediate object form and explicit communication", () => {
    const value = {
      name: "slack_agent",
      blocking: true,
      initUserMessageProperty: "message",
      initAttachmentsProperty: "attachments",
      initAgentNameProperty: "title",
      immediate: { nameEnv: "CHANNEL_NAME", descriptionEnv: "CHANNEL_PURPOSE", scopedEnv: ["SLACK_TOKEN"] },
      optional: "ENABLE_SLACK",
      resumable: { receives_messages: "side_b", maxInstances: 3, parentCommunication: "explicit" },
    };
    expect(subagentToolConfigSchema.parse(value)).toEqual(value);
    expect(toolEntrySchema.parse(value)).toEqual(value);
    expect(toolEntrySchema.parse({ name: "a", immediate: true, resumable: false })).toEqual({
      name: "a",
      immediate: true,
      resumable: false,
    });
  });

  it("accepts the subprompt and tool-config forms", () => {
    const sub = toolEntrySchema.parse({
      name: "polish_text",
      includeTextResponse: true,
      includeToolCalls: false,
      includeErrors: true,
      initUserMessageProperty: "text",
    });
    expect(hasSubpromptFields(sub)).toBe(true);
    expect(hasSubagentFields(sub)).toBe(false);
    const tool = toolEntrySchema.parse({
      name: "file_search",
      env: { VECTOR_STORE_ID: "vs_abc123" },
      options: { k: 5 },
    });
    expect(hasToolConfigFields(tool)).toBe(true);
    expect(hasSubpromptFields(tool)).toBe(false);
  });

  it("rejects resumable: true with the accepted forms", () => {
    expect(issues({ name: "a", resumable: true })).toEqual([
      {
        path: "resumable",
        message:
          "resumable must be false or { receives_messages: 'side_a' | 'side_b', maxInstances?, parentCommunication? }",
        code: "invalid_union",
      },
    ]);
  });

  it("rejects a resumable object without receives_messages, pointing inside it", () => {
    expect(issues({ name: "a", resumable: { maxInstances: 2 } })).toEqual([
      {
        path: "resumable.receives_messages",
        message: "required: add `receives_messages: 'side_a'` (or 'side_b')",
        code: "invalid_value",
      },
    ]);
  });

  it("rejects bad maxInstances, parentCommunication and scopedEnv", () => {
    const found = issues({
      name: "a",
      immediate: { scopedEnv: ["bad name"] },
      resumable: { receives_messages: "side_a", maxInstances: 0, parentCommunication: "loud" },
    });
    expect(found.map((i) => i.path)).toEqual([
      "immediate.scopedEnv.0",
      "resumable.maxInstances",
      "resumable.parentCommunication",
    ]);
    expect(found[1]?.message).toBe("maxInstances must be at least 1");
  });

  it("rejects an object without name and a non-object, non-string entry", () => {
    expect(issues({ blocking: true })).toEqual([
      { path: "name", message: "required: add `name: '<name>'`", code: "invalid_type" },
    ]);
    expect(issues(42)[0]?.message).toMatch(/^each tool entry must be a name or an object/);
  });
});

describe("tool entry helpers", () => {
  it("names and normalises both forms", () => {
    expect(toolEntryName("word_count")).toBe("word_count");
    expect(toolEntryName({ name: "polish_text", includeErrors: false })).toBe("polish_text");
    expect(normalizeToolEntry("word_count")).toEqual({ name: "word_count" });
    const object = { name: "x", blocking: false };
    expect(normalizeToolEntry(object)).toBe(object);
  });

  it("a plain name has no kind-specific fields", () => {
    expect(hasSubagentFields("x")).toBe(false);
    expect(hasSubpromptFields("x")).toBe(false);
    expect(hasToolConfigFields("x")).toBe(false);
    expect(fieldsNotAllowedFor("x", "handoff")).toEqual([]);
  });

  it("lists the fields that do not fit the resolved kind", () => {
    const entry = { name: "x", blocking: true, initUserMessageProperty: "m", includeErrors: false, env: { A: "1" } };
    expect(fieldsNotAllowedFor(entry, "tool")).toEqual(["blocking", "includeErrors", "initUserMessageProperty"]);
    expect(fieldsNotAllowedFor(entry, "subprompt")).toEqual(["blocking", "env"]);
    expect(fieldsNotAllowedFor(entry, "subagent")).toEqual(["includeErrors", "env"]);
    expect(fieldsNotAllowedFor(entry, "handoff")).toEqual([
      "blocking",
      "includeErrors",
      "initUserMessageProperty",
      "env",
    ]);
  });
});
