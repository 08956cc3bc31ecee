import { z } from "zod";
import { referenceSchema } from "./names";

/** Literal text part of a structured prompt. */
export const promptTextPartSchema = z.object({
  type: z.literal("text"),
  /** Text inserted verbatim. */
  content: z.string({ error: "content must be a string: add `content: '<text>'`" }),
});

/** Includes another prompt's content (rendered recursively). */
export const promptIncludePartSchema = z.object({
  type: z.literal("include"),
  /** Name of the prompt to include. */
  prompt: referenceSchema("prompt"),
});

/** Inserts a thread variable's value at render time. */
export const promptEnvPartSchema = z.object({
  type: z.literal("env"),
  /** Variable name resolved from the thread env. */
  property: referenceSchema("property"),
});

/** One part of a structured prompt, discriminated by `type` (`text`, `include`, `env`). */
export const promptPartSchema = z.discriminatedUnion("type", [
  promptTextPartSchema,
  promptIncludePartSchema,
  promptEnvPartSchema,
]);

/** System prompt content: a string, or an array of parts composed at render time. */
export const promptContentSchema = z.union([z.string(), z.array(promptPartSchema)], {
  error: (issue) =>
    `prompt must be a string or an array of parts such as { type: 'text', content: '...' } ` +
    `(got ${issue.input === null ? "null" : typeof issue.input})`,
});

/** `{ type: 'text', content }` */
export type PromptTextPart = z.output<typeof promptTextPartSchema>;
/** `{ type: 'include', prompt }` */
export type PromptIncludePart = z.output<typeof promptIncludePartSchema>;
/** `{ type: 'env', property }` */
export type PromptEnvPart = z.output<typeof promptEnvPartSchema>;
/** Any structured prompt part. */
export type PromptPart = z.output<typeof promptPartSchema>;
/** A prompt's content: string or parts. */
export type PromptContent = z.output<typeof promptContentSchema>;
