import { z } from "zod";

/** Any zod 4 object schema, the type accepted for tool/effect `args` and a prompt's `requiredSchema`. */
export type AnyZodObject = z.ZodObject<any, any>;

/** Any function (the shape of `execute` before its signature is known). */
export type AnyFunction = (...args: any[]) => unknown;

interface ZodInternalsLike {
  _zod?: { def?: { type?: unknown } };
  safeParse?: unknown;
}

/** True when `value` looks like a zod 4 schema (has `safeParse` and `_zod`); works across zod copies. */
export function isZodSchemaLike(value: unknown): value is z.ZodType {
  if (typeof value !== "object" || value === null) return false;
  const v = value as ZodInternalsLike;
  return typeof v.safeParse === "function" && typeof v._zod === "object" && v._zod !== null;
}

/** True when `value` looks like a zod 4 object schema (`z.object({...})`), checked by shape, not `instanceof`. */
export function isZodObjectLike(value: unknown): value is AnyZodObject {
  return isZodSchemaLike(value) && (value as ZodInternalsLike)._zod?.def?.type === "object";
}

/**
 * Schema accepting a zod 4 object schema, kept as-is. Validated by duck typing so that definition files
 * loaded through another module instance of zod are accepted too.
 */
export function zodObjectSchema<T extends AnyZodObject = AnyZodObject>(field: string) {
  return z.custom<T>(isZodObjectLike, {
    error: (issue) => {
      const input = issue.input;
      if (isZodSchemaLike(input)) {
        const type = String((input as ZodInternalsLike)._zod?.def?.type ?? "unknown");
        return `${field} must be a zod object schema: wrap the fields in z.object({ ... }) (got a zod ${type} schema)`;
      }
      if (typeof input === "object" && input !== null && "_def" in input) {
        return `${field} looks like a zod 3 schema: import { z } from "zod" (zod 4) and write z.object({ ... })`;
      }
      return `${field} must be a zod object schema, e.g. z.object({ text: z.string() })`;
    },
  });
}

/** Schema accepting any function, kept as-is. `example` shows the expected signature in the error message. */
export function functionSchema<F extends AnyFunction = AnyFunction>(field: string, example: string) {
  return z.custom<F>((value) => typeof value === "function", {
    error: (issue) =>
      issue.input === undefined
        ? `required: add \`${example}\``
        : `${field} must be a function: \`${example}\` (got ${describeValueType(issue.input)})`,
  });
}

/** Short description of a value's type for error messages ("string", "array", "null"). */
export function describeValueType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
