import { z } from "zod";

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Schema of any JSON value (finite numbers; no `undefined`, functions or class instances checked deeply). */
export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number().refine(Number.isFinite, { error: "numbers must be finite" }),
    z.boolean(),
    z.null(),
    z.array(jsonValueSchema),
    z.record(z.string(), jsonValueSchema),
  ]),
);

/** Schema of a JSON object (`Record<string, unknown>` shaped metadata). */
export const jsonObjectSchema = z.record(z.string(), z.unknown());
