import { z } from "zod";
import { describe, expect, it } from "vitest";
import { defineEffect, effectDefinitionSchema } from "./effect";
import { formatZodIssues } from "./format-issues";

describe("effects", () => {
  it("keeps onInterrupt: 'fail' and rejects an unknown policy", () => {
    const execute = async () => {};
    expect(effectDefinitionSchema.parse(defineEffect({ name: "charge", onInterrupt: "fail", execute })).onInterrupt).toBe("fail");
    expect(effectDefinitionSchema.safeParse({ name: "charge", onInterrupt: "never", execute }).success).toBe(false);
  });

  it("accepts a defineEffect result and keeps args and execute", () => {
    const effect = defineEffect({
      name: "send_reminder",
      description: "Reminds the user.",
      args: z.object({ text: z.string() }),
      execute: async () => undefined,
    });
    const parsed = effectDefinitionSchema.parse(effect);
    expect(parsed.name).toBe("send_reminder");
    expect(parsed.args).toBe(effect.args);
    expect(parsed.execute).toBe(effect.execute);
  });

  it("requires a valid name and an execute function", () => {
    const value = { name: "send reminder", execute: 3 };
    const r = effectDefinitionSchema.safeParse(value);
    const found = formatZodIssues(r.error!.issues, value);
    expect(found.map((i) => i.path)).toEqual(["name", "execute"]);
    expect(found[0]?.message).toMatch(/^effect name "send reminder" is not a valid name/);
    expect(found[1]?.message).toBe(
      "execute must be a function: `execute: async (state, args) => { ... }` (got number)",
    );
  });
});
