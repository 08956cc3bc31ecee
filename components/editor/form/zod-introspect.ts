/** Reading the spec's zod 4 schemas to generate form fields: unwrap optional/default/pipe, read types and options. */
import type { z } from "zod";

type Def = { type: string; [key: string]: unknown };

export interface Unwrapped {
  schema: z.ZodType;
  type: string;
  optional: boolean;
  defaultValue?: unknown;
}

export function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips optional, default, nullable and pipe (transforms) down to the schema that describes the written value. */
export function unwrap(schema: z.ZodType): Unwrapped {
  let current = schema;
  let optional = false;
  let defaultValue: unknown;
  for (let i = 0; i < 10; i++) {
    const def = defOf(current);
    if (def.type === "optional" || def.type === "nullable") {
      optional = true;
      current = def.innerType as z.ZodType;
    } else if (def.type === "default" || def.type === "prefault") {
      optional = true;
      const dv = def.defaultValue;
      defaultValue = typeof dv === "function" ? (dv as () => unknown)() : dv;
      current = def.innerType as z.ZodType;
    } else if (def.type === "pipe") {
      current = def.in as z.ZodType;
    } else break;
  }
  return { schema: current, type: defOf(current).type, optional, ...(defaultValue !== undefined ? { defaultValue } : {}) };
}

export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const def = defOf(schema);
  const shape = def.shape;
  return (typeof shape === "function" ? (shape as () => Record<string, z.ZodType>)() : shape) as Record<string, z.ZodType>;
}

export function enumOptions(schema: z.ZodType): string[] {
  const def = defOf(schema);
  if (def.entries && typeof def.entries === "object") return Object.values(def.entries as Record<string, string>);
  return [];
}

export function elementOf(schema: z.ZodType): z.ZodType {
  return defOf(schema).element as z.ZodType;
}

export function unionOptions(schema: z.ZodType): z.ZodType[] {
  return (defOf(schema).options as z.ZodType[]) ?? [];
}

export function recordValueType(schema: z.ZodType): string {
  return unwrap(defOf(schema).valueType as z.ZodType).type;
}

/** Minimum and integer constraints of a number schema. */
export function numberBounds(schema: z.ZodType): { min?: number; integer: boolean } {
  const checks = (defOf(schema).checks as Array<{ _zod: { def: Record<string, unknown> } }> | undefined) ?? [];
  let min: number | undefined;
  let integer = false;
  for (const c of checks) {
    const d = c._zod.def;
    if (d.check === "greater_than") min = Number(d.value) + (d.inclusive ? 0 : 1);
    if (d.check === "number_format" && (d.format === "safeint" || d.format === "int32")) integer = true;
  }
  return { ...(min !== undefined ? { min } : {}), integer };
}

/** "maxSessionTurns" → "Max session turns". */
export function humanize(key: string): string {
  if (/^side[AB]$/.test(key)) return `Side ${key.slice(-1)}`;
  const spaced = key.replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).replace(/\burl\b/g, "URL").replace(/\bapi\b/g, "API");
}
