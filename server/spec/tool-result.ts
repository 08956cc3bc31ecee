import { z } from "zod";
import { attachmentInputSchema } from "./attachment";
import { jsonObjectSchema } from "./json";

/** A successful tool result. */
export const toolSuccessSchema = z.object({
  status: z.literal("success"),
  /** Text given to the model as the tool message content; optional (a result with only attachments is valid). */
  result: z.string({ error: "result must be a string" }).optional(),
  /** Files returned with the result (new files, stored refs or thread-local paths). */
  attachments: z.array(attachmentInputSchema).optional(),
  /** Stack trace for debugging: stored with the tool message and shown in the Inspector, never sent to the model. */
  stack: z.string().optional(),
});

/** A failed tool result; the model sees `error`. */
export const toolErrorSchema = z.object({
  status: z.literal("error"),
  /** Error text given to the model. */
  error: z.string({ error: "error must be a string" }),
  /** Machine-readable code (e.g. `subagent_env_required`). */
  error_code: z.string().optional(),
  /** JSON-serialisable structured payload. */
  error_data: jsonObjectSchema.optional(),
  /** Stack trace for debugging: stored with the tool message and shown in the Inspector, never sent to the model. */
  stack: z.string().optional(),
});

/** The spec's `ToolResult`, discriminated by `status`. */
export const toolResultSchema = z.discriminatedUnion("status", [toolSuccessSchema, toolErrorSchema]);

/** A tool result. */
export type ToolResult = z.output<typeof toolResultSchema>;
/** A successful tool result. */
export type ToolSuccessResult = z.output<typeof toolSuccessSchema>;
/** A failed tool result. */
export type ToolErrorResult = z.output<typeof toolErrorSchema>;

/** `error_code` of the result `normalizeToolReturn` produces for a value that is not a valid tool result. */
export const INVALID_TOOL_RESULT = "invalid_tool_result";

function invalid(reason: string): ToolErrorResult {
  return {
    status: "error",
    error:
      `The tool returned an invalid result: ${reason}. Return a string, a JSON value, ` +
      `{ status: 'success', result: '...' } or { status: 'error', error: '...' }.`,
    error_code: INVALID_TOOL_RESULT,
  };
}

function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * Turns whatever a tool's `execute` returned into a `ToolResult`:
 * - `undefined` → success with an empty result;
 * - a string → success with that text;
 * - an object whose `status` is `'success'` or `'error'` → validated as a `ToolResult` (a non-string `result`
 *   is JSON-stringified);
 * - any other JSON value → success with its JSON text.
 * Anything else (functions, symbols, bigints, circular objects, malformed results) becomes an error result with
 * `error_code: 'invalid_tool_result'` explaining what to return.
 */
export function normalizeToolReturn(value: unknown): ToolResult {
  if (value === undefined) return { status: "success", result: "" };
  if (typeof value === "string") return { status: "success", result: value };
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
    return invalid(`got a ${typeof value}`);
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const status = (value as { status?: unknown }).status;
    if (status === "success" || status === "error") {
      let candidate = value as Record<string, unknown>;
      if (status === "success" && candidate.result !== undefined && typeof candidate.result !== "string") {
        const text = stringify(candidate.result);
        if (text === undefined) return invalid("result could not be converted to JSON text");
        candidate = { ...candidate, result: text };
      }
      const parsed = toolResultSchema.safeParse(candidate);
      if (parsed.success) return parsed.data;
      const first = parsed.error.issues[0];
      const where = first && first.path.length > 0 ? `${first.path.join(".")}: ` : "";
      return invalid(`${where}${first?.message ?? "malformed"}`);
    }
  }
  const text = stringify(value);
  if (text === undefined) return invalid("the value could not be converted to JSON text");
  return { status: "success", result: text };
}
