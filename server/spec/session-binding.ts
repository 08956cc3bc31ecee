import { z } from "zod";

/**
 * A session lifecycle binding (`sessionStop`, `sessionFail`, `sessionStatus`): a tool name, or
 * `{ name, messageProperty?, attachmentsProperty? }` mapping the tool's arguments to the lifecycle payload.
 */
export const sessionToolConfigSchema = z.object({
  /** Tool whose call performs this lifecycle action. */
  name: z.string().trim().min(1, { error: "name must not be empty: give the tool's name" }),
  /** Tool-argument field whose value becomes the lifecycle message text. */
  messageProperty: z.string().min(1).optional(),
  /** Tool-argument field holding attachment path(s) (a string or an array of strings). */
  attachmentsProperty: z.string().min(1).optional(),
});

/** Object form of a session lifecycle binding. */
export type SessionToolConfig = z.output<typeof sessionToolConfigSchema>;

/** A session lifecycle binding: a tool name or the object form. */
export const sessionToolBindingSchema = z.union(
  [z.string().trim().min(1, { error: "tool name must not be empty" }), sessionToolConfigSchema],
  {
    error: (issue) =>
      `must be a tool name or { name: '<tool name>', messageProperty?: '<argument>' } ` +
      `(got ${issue.input === null ? "null" : Array.isArray(issue.input) ? "array" : typeof issue.input})`,
  },
);

/** A session lifecycle binding as written (string or object form). */
export type SessionToolBinding = z.output<typeof sessionToolBindingSchema>;

/** Normalises a binding to its object form; `undefined` stays `undefined`. */
export function normalizeSessionBinding(binding: SessionToolBinding | undefined): SessionToolConfig | undefined {
  if (binding === undefined) return undefined;
  if (typeof binding === "string") return { name: binding };
  const out: SessionToolConfig = { name: binding.name };
  if (binding.messageProperty !== undefined) out.messageProperty = binding.messageProperty;
  if (binding.attachmentsProperty !== undefined) out.attachmentsProperty = binding.attachmentsProperty;
  return out;
}
