import { describe, expect, it } from "vitest";
import { agentDefinitionSchema } from "./agent";
import { agentDeprecatedAliases } from "./deprecations";
import { formatZodIssues } from "./format-issues";
import { defineAgent } from "./define";

/** agents.md §8, verbatim. */
const specExample = defineAgent({
  name: "asset_subagent",
  type: "dual_ai",
  maxSessionTurns: 40,
  exposeAsTool: true,
  toolDescription: "Generate and QA top-down game assets.",
  sideA: {
    label: "Worker",
    prompt: "asset_worker",
    stopOnResponse: true,
    sessionFail: { name: "fail_asset", messageProperty: "reason", attachmentsProperty: "attachments" },
  },
  sideB: {
    label: "Reviewer",
    prompt: "asset_reviewer",
    stopOnResponse: false,
    sessionStop: { name: "approve_asset", messageProperty: "summary", attachmentsProperty: "attachments" },
    sessionStatus: { name: "update_asset_status", messageProperty: "status" },
  },
});

function issues(value: unknown) {
  const r = agentDefinitionSchema.safeParse(value);
  if (r.success) throw new Error("expected the value to be rejected");
  return formatZodIssues(r.error.issues, value);
}

describe("agentDefinitionSchema", () => {
  it("accepts the spec's example (agents.md §8) and keeps every field", () => {
    const agent = agentDefinitionSchema.parse(specExample);
    expect(agent.name).toBe("asset_subagent");
    expect(agent.type).toBe("dual_ai");
    expect(agent.maxSessionTurns).toBe(40);
    expect(agent.exposeAsTool).toBe(true);
    expect(agent.sideA).toEqual({
      label: "Worker",
      prompt: "asset_worker",
      stopOnResponse: true,
      sessionFail: { name: "fail_asset", messageProperty: "reason", attachmentsProperty: "attachments" },
      deprecatedAliases: [],
    });
    expect(agent.sideB?.stopOnResponse).toBe(false);
    expect(agent.sideB?.sessionStatus).toEqual({ name: "update_asset_status", messageProperty: "status" });
    expect(agentDeprecatedAliases(agent)).toEqual([]);
  });

  it("applies the defaults: ai_human, exposeAsTool false, stopOnResponse true, no variables", () => {
    const agent = agentDefinitionSchema.parse({ name: "support", sideA: { prompt: "support_prompt" } });
    expect(agent.type).toBe("ai_human");
    expect(agent.exposeAsTool).toBe(false);
    expect(agent.sideA.stopOnResponse).toBe(true);
    expect(agent.variables).toEqual([]);
    expect(agent.sideB).toBeUndefined();
  });

  it("keeps optional metadata, env, hooks, variables and packaging fields", () => {
    const agent = agentDefinitionSchema.parse({
      name: "support",
      title: "Support",
      description: "Answers questions",
      icon: "/icons/support.svg",
      env: { REGION: "eu" },
      hooks: ["log_messages"],
      variables: [{ name: "API_KEY", type: "secret", required: true }],
      packageName: "@acme/support",
      version: "1.0.0",
      author: "Acme",
      license: "MIT",
      sideA: { prompt: "p" },
    });
    expect(agent).toMatchObject({
      title: "Support",
      description: "Answers questions",
      icon: "/icons/support.svg",
      env: { REGION: "eu" },
      hooks: ["log_messages"],
      packageName: "@acme/support",
      version: "1.0.0",
      author: "Acme",
      license: "MIT",
    });
    expect(agent.variables).toEqual([
      { name: "API_KEY", type: "secret", required: true, scoped: false, description: "" },
    ]);
  });

  it("drops unknown keys without failing", () => {
    const agent = agentDefinitionSchema.parse({ name: "a", sideA: { prompt: "p" }, colour: "blue" });
    expect("colour" in agent).toBe(false);
  });

  it("leaves cross-field rules to the registry: dual_ai without sideB and exposeAsTool without description parse", () => {
    const agent = agentDefinitionSchema.parse({
      name: "a",
      type: "dual_ai",
      exposeAsTool: true,
      sideA: { prompt: "p" },
    });
    expect(agent.sideB).toBeUndefined();
    expect(agent.toolDescription).toBeUndefined();
  });

  it("reports a missing sideA prompt with the field path and the fix", () => {
    expect(issues({ name: "a", sideA: {} })).toEqual([
      { path: "sideA.prompt", message: "required: add `prompt: '<prompt name>'`", code: "invalid_type" },
    ]);
  });

  it("reports a missing name and a missing sideA", () => {
    const found = issues({});
    expect(found.map((i) => i.path)).toEqual(["name", "sideA"]);
    expect(found[0]?.message).toBe("required: add `name: '<name>'`");
    expect(found[1]?.message).toBe("required: add `sideA: { prompt: '<prompt name>' }`");
  });

  it.each(["has space", "1starts_with_digit", "dots.not.allowed", "", "x".repeat(65)])(
    "rejects the name %j with a message naming the allowed characters",
    (name) => {
      const [issue] = issues({ name, sideA: { prompt: "p" } });
      expect(issue?.path).toBe("name");
      expect(issue?.message).toMatch(/agent name/);
    },
  );

  it.each(["support_agent", "research-flow", "A1"])("accepts the name %j", (name) => {
    expect(agentDefinitionSchema.safeParse({ name, sideA: { prompt: "p" } }).success).toBe(true);
  });

  it("rejects an unknown type, a non-positive maxSessionTurns and a fractional maxSteps", () => {
    const found = issues({ name: "a", type: "solo", maxSessionTurns: 0, sideA: { prompt: "p", maxSteps: 1.5 } });
    expect(found).toEqual([
      { path: "type", message: `type must be 'ai_human' or 'dual_ai' (got "solo")`, code: "invalid_value" },
      { path: "maxSessionTurns", message: "maxSessionTurns must be at least 1", code: "too_small" },
      { path: "sideA.maxSteps", message: "maxSteps must be a whole number", code: "invalid_type" },
    ]);
  });

  it("rejects non-string env values", () => {
    const [issue] = issues({ name: "a", sideA: { prompt: "p" }, env: { PORT: 8080 } });
    expect(issue).toMatchObject({ path: "env.PORT", message: "env values must be strings" });
  });
});
