import type { ToolResult } from "@/server/spec";
import type { ResolvedToolEntry } from "../definitions";
import type { MessageRecord } from "../ports";
import type { StepContext } from "./step-context";
import type { StateScope } from "./deps";

/** A prompt entry that spawns a subagent. */
export type SubagentEntry = Extract<ResolvedToolEntry, { kind: "subagent" }>;

/** A tool the model can call at this step: a prompt entry, or a lifecycle tool for resumable subagents. */
export type OfferedTool =
  | ResolvedToolEntry
  | { kind: "lifecycle"; name: "subagent_create" | "subagent_message"; resumables: SubagentEntry[] };

/** What a tool call runs with: a step scope plus the assistant message that made the call. */
export interface ToolCallContext extends StateScope {
  ctx: StepContext;
  assistantMessage: MessageRecord;
  /** Depth of nested invocations (subprompts calling tools), to stop runaway recursion. */
  depth: number;
  /** The tools offered at this step (computed once per step). */
  offered?: Map<string, OfferedTool>;
}

export const toolError = (error: string, extra: { error_code?: string; error_data?: Record<string, unknown> } = {}): ToolResult => ({
  status: "error",
  error,
  ...extra,
});

/** The text a tool message stores: the result, or the error. */
export const resultText = (r: ToolResult): string => (r.status === "success" ? (r.result ?? "") : r.error);

/**
 * The metadata a tool message keeps beside its text: the error code and data of a failure, and a `stack` the tool
 * returned (for the Inspector; the model gets only the text). Null when there is none.
 */
export function resultMetadata(r: ToolResult): Record<string, unknown> | null {
  const meta: Record<string, unknown> = {};
  if (r.status === "error" && (r.error_code || r.error_data)) Object.assign(meta, { error_code: r.error_code ?? null, error_data: r.error_data ?? null });
  if (r.stack) meta.stack = r.stack;
  return Object.keys(meta).length > 0 ? meta : null;
}

/** Parse the model's argument text; malformed JSON becomes a clear error the model can act on. */
export function parseArguments(name: string, raw: string): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  const text = raw.trim() === "" ? "{}" : raw;
  try {
    const v = JSON.parse(text);
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      return { ok: false, error: `The arguments for ${name} must be a JSON object, got ${Array.isArray(v) ? "an array" : typeof v}.` };
    }
    return { ok: true, args: v as Record<string, unknown> };
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `The arguments for ${name} are not valid JSON (${detail}). Call ${name} again with a JSON object.` };
  }
}
