import { describe, expect, it } from "vitest";
import { hintFor } from "./field-hints";

describe("field help texts", () => {
  it("shows the variable type's help on Variables → Type, not the agent type's", () => {
    const hint = hintFor("prompts", "variables.0.type", "type");
    expect(hint).toContain("secret");
    expect(hint).not.toContain("ai_human");
    expect(hintFor("agents", "variables.3.type", "type")).toBe(hint);
  });

  it("keeps the agent type's help on the agent's own type field", () => {
    expect(hintFor("agents", "type", "type")).toContain("ai_human");
  });

  it("gives no agent-type help to other fields named type (prompt parts)", () => {
    expect(hintFor("prompts", "prompt.1.type", "type")).toBeUndefined();
  });

  it("tells a model's provider id apart from a prompt's model reference", () => {
    expect(hintFor("models", "model", "model")).toContain("provider's model id");
    expect(hintFor("prompts", "model", "model")).toContain("a file in models/");
  });

  it("falls back to the help of the field's name", () => {
    expect(hintFor("agents", "sideA.maxSteps", "maxSteps")).toContain("safety limit");
  });
});
