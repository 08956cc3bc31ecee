import { definePrompt } from "@studio/spec";
import { z } from "zod";

/** A subprompt: one step on the careful model that returns an improved version of a text. */
export default definePrompt({
  name: "polish_text",
  toolDescription:
    "Polish a piece of text: fix grammar and spelling, tighten wording and improve flow while keeping the " +
    "meaning and the author's voice. Returns only the improved text.",
  model: "careful",
  prompt: [
    { type: "include", prompt: "house_style" },
    {
      type: "text",
      content: `

You are an editor. The user message is a text to polish, possibly preceded by an instruction on what to improve.
Fix grammar, spelling and punctuation, remove filler and repetition, and smooth the flow. Keep the meaning, the
facts, the structure and the author's voice. Reply with the polished text only.`,
    },
  ],
  requiredSchema: z.object({
    text: z.string().describe("The text to polish, optionally preceded by a one-line instruction."),
  }),
});
