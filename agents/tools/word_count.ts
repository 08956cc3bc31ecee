import { defineTool } from "@studio/spec";
import { z } from "zod";

/** Counts words, sentences and paragraphs so the model can check a length target instead of guessing. */
export default defineTool({
  description:
    "Count the words, characters, sentences and paragraphs of a text and estimate its reading time. " +
    "Use it to check a length target before presenting or approving a text.",
  args: z.object({
    text: z.string().describe("The text to measure."),
  }),
  execute: async (_state, { text }) => {
    const trimmed = text.trim();
    const words = trimmed === "" ? 0 : trimmed.split(/\s+/u).length;
    const sentences = trimmed === "" ? 0 : (trimmed.match(/[^.!?]+(?:[.!?]+|$)/gu) ?? []).filter((s) => s.trim()).length;
    const paragraphs = trimmed === "" ? 0 : trimmed.split(/\n\s*\n/u).filter((p) => p.trim()).length;
    const minutes = Math.max(1, Math.round(words / 230));
    return (
      `${words} words, ${text.length} characters, ${sentences} sentences, ${paragraphs} paragraphs; ` +
      `about ${words === 0 ? 0 : minutes} minute${minutes === 1 ? "" : "s"} to read.`
    );
  },
});
