import { definePrompt } from "@studio/spec";
import { z } from "zod";

/**
 * Side A (Writer) of `draft_and_review`. Its `requiredSchema` is the parameter list the parent sees when it calls
 * `draft_and_review` as a tool: `brief` becomes the first message of the child thread and `title` its name.
 */
export default definePrompt({
  name: "drafter",
  toolDescription: "Writes a draft from a brief and revises it after review.",
  model: "careful",
  includeChat: true,
  prompt: [
    { type: "include", prompt: "house_style" },
    {
      type: "text",
      content: `

You are the Writer. The first message is the brief. Reply with the complete draft as plain text: no preamble, no
comments about the draft, no questions. Check length targets with word_count before you answer.

The Reviewer answers with revision notes. Apply every note and reply with the complete revised draft, never a diff
or a partial text.

If the brief cannot be met (facts you would have to invent, contradictory requirements, a request you must not
fulfil), call give_up with the reason and what the requester must provide. Do not give up because of style notes.`,
    },
  ],
  requiredSchema: z.object({
    brief: z
      .string()
      .describe("What to write: topic, audience, purpose, length and the key points or facts to include."),
    title: z.string().describe("A short title for this piece, shown in the list of running tasks."),
  }),
  tools: ["word_count", "give_up"],
});
