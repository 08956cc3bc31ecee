import { z } from "zod";
import type { EnvScope } from "@/server/runtime/ports";
import type { App } from "../app-context";
import { ApiError } from "../errors";

/**
 * Stored variables of one scope (instance, a user, a thread) as forms edit them: a list of name, type and value.
 * Secret values are encrypted at rest and write-only: they are never sent back (`value: null`, `has_value: true`);
 * saving a secret without a value keeps the stored one.
 */
export const variableName = z
  .string()
  .trim()
  .min(1, "a name is required")
  .max(200)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "letters, digits and _ only, not starting with a digit (e.g. WEATHER_API_KEY)");

export const saveVariablesBody = z.object({
  variables: z
    .array(z.object({ name: variableName, type: z.enum(["text", "secret"]).default("text"), value: z.string().max(100_000).nullish() }))
    .max(500)
    .superRefine((rows, ctx) => {
      const seen = new Set<string>();
      rows.forEach((r, i) => {
        if (seen.has(r.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `${r.name} is listed twice` });
        seen.add(r.name);
      });
    }),
});

export interface VariableView {
  name: string;
  type: "text" | "secret";
  /** The text value; always null for a secret. */
  value: string | null;
  has_value: boolean;
  updated_at: string;
}

export async function listVariables(app: App, scope: EnvScope, ownerKey: string): Promise<VariableView[]> {
  const rows = await app.persistence.env.list(scope, ownerKey);
  return rows.map((r) => ({
    name: r.name,
    type: r.type,
    value: r.type === "secret" ? null : r.value,
    has_value: true,
    updated_at: r.updatedAt.toISOString(),
  }));
}

/** Replace a scope's variables with the given list (names left out are removed). */
export async function saveVariables(app: App, scope: EnvScope, ownerKey: string, input: z.output<typeof saveVariablesBody>): Promise<VariableView[]> {
  const env = app.persistence.env;
  const existing = new Map((await env.list(scope, ownerKey)).map((r) => [r.name, r]));
  const box = app.runtime.deps.secrets;
  const problems: { path: string; message: string }[] = [];
  const writes: { name: string; type: "text" | "secret"; value: string | null }[] = [];
  input.variables.forEach((v, i) => {
    const keep = v.type === "secret" && (v.value === undefined || v.value === null || v.value === "") && existing.get(v.name)?.type === "secret";
    if (keep) return void writes.push({ name: v.name, type: "secret", value: null });
    if (v.value === undefined || v.value === null) return void problems.push({ path: `variables.${i}.value`, message: `${v.name}: a value is required` });
    if (v.type === "secret" && !box) return void problems.push({ path: `variables.${i}.type`, message: "no secrets key is configured" });
    writes.push({ name: v.name, type: v.type, value: v.value });
  });
  if (problems.length > 0) throw new ApiError(400, "VALIDATION_ERROR", problems.map((p) => p.message).join("; "), problems);
  for (const w of writes) {
    if (w.value === null) continue;
    await env.set(scope, ownerKey, w.name, w.type, w.type === "secret" ? box!.encrypt(w.value) : w.value);
  }
  const listed = new Set(writes.map((w) => w.name));
  for (const name of existing.keys()) if (!listed.has(name)) await env.delete(scope, ownerKey, name);
  return listVariables(app, scope, ownerKey);
}
