import { z } from "zod";

/** zod shapes of the JSON columns the runtime writes (parsed on read, design.md §7). */
const side = z.enum(["a", "b"]);

export const threadStateSchema = z.object({
  turn: z.object({ side, active: z.boolean(), steps: z.number().int(), startSeq: z.number().int() }).nullable().default(null),
  turnsCompleted: z.object({ a: z.number().int(), b: z.number().int() }).default({ a: 0, b: 0 }),
  lastTurnEndSeq: z.object({ a: z.number().int(), b: z.number().int() }).default({ a: 0, b: 0 }),
  activationSteps: z.number().int().default(0),
  session: z
    .object({
      ended: z.boolean(),
      reason: z.string().optional(),
      ok: z.boolean().optional(),
      result: z.string().optional(),
      attachments: z.array(z.string()).optional(),
    })
    .default({ ended: false }),
  immediateDone: z.array(z.string()).default([]),
  promptActivation: z.number().int().optional(),
  continueRequested: z.boolean().optional(),
  traceParent: z.string().optional(),
  fork: z
    .object({
      fromThreadId: z.string(),
      fromMessageId: z.string(),
      edited: z.boolean(),
      regeneratedMessageId: z.string().optional(),
      children: z.array(
        z.object({ childId: z.string(), name: z.string(), title: z.string().nullable(), description: z.string(), resumable: z.boolean(), status: z.string(), toolName: z.string() }),
      ),
    })
    .optional(),
});

export const tagsSchema = z.array(z.string());

export const toolCallsSchema = z.array(
  z.object({ id: z.string(), type: z.literal("function"), function: z.object({ name: z.string(), arguments: z.string() }) }),
);

export const attachmentsSchema = z.array(
  z.object({ path: z.string(), name: z.string().optional(), mimeType: z.string().optional(), size: z.number().optional() }),
);

export const objectSchema = z.record(z.string(), z.unknown());
