import { describe, expect, it } from "vitest";
import { formatZodIssues } from "./format-issues";
import { variableDefinitionSchema } from "./variable";

describe("variableDefinitionSchema", () => {
  it("applies defaults: required false, scoped false, description ''", () => {
    expect(variableDefinitionSchema.parse({ name: "AUDIENCE", type: "text" })).toEqual({
      name: "AUDIENCE",
      type: "text",
      required: false,
      scoped: false,
      description: "",
    });
  });

  it("keeps a scoped required secret (spec example)", () => {
    const v = {
      name: "VECTOR_STORE_ID",
      type: "secret",
      required: true,
      scoped: true,
      description: "OpenAI Vector Store ID",
    };
    expect(variableDefinitionSchema.parse(v)).toEqual(v);
  });

  it("rejects a missing or unknown type and a bad name", () => {
    const missing = variableDefinitionSchema.safeParse({ name: "X" });
    expect(formatZodIssues(missing.error!.issues, { name: "X" })).toEqual([
      { path: "type", message: "required: add `type: 'text'` or `type: 'secret'`", code: "invalid_value" },
    ]);
    const value = { name: "my-var", type: "password" };
    const bad = variableDefinitionSchema.safeParse(value);
    expect(formatZodIssues(bad.error!.issues, value).map((i) => i.message)).toEqual([
      'variable name "my-var" is not valid: use letters, digits and "_", not starting with a digit (for example "VECTOR_STORE_ID")',
      `type must be 'text' or 'secret' (got "password")`,
    ]);
  });
});
