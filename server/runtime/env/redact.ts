import type { EnvValueRecord } from "../ports";
import type { SecretBox } from "./secret-box";

export const SECRET_MASK = "••••";

/** The plain values of the secret env values visible to a thread (shortest ones are ignored: too common to mask). */
export function secretValues(rows: EnvValueRecord[], box: SecretBox | null): string[] {
  const out = new Set<string>();
  for (const r of rows) {
    if (r.type !== "secret" || !box) continue;
    try {
      const v = box.decrypt(r.value);
      if (v.length >= 4) out.add(v);
    } catch {}
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** Replace every occurrence of a secret value in `text` with the mask. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(SECRET_MASK);
  return out;
}

/** Redact secret values anywhere inside a JSON-compatible value (strings only). */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return redactText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, secrets);
    return out as T;
  }
  return value;
}
