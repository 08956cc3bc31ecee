import { defineTool } from "@studio/spec";
import { z } from "zod";

/**
 * The reviewer's approval. Bound as `sessionStop` of `draft_and_review`: a successful call ends the session and the
 * `draft` argument is returned to the requester as the result.
 */
export default defineTool({
  description:
    "Approve the writer's latest draft and end the review. Pass the complete approved text in `draft`, " +
    "exactly as it should be delivered.",
  args: z.object({
    draft: z.string().min(1).describe("The complete approved text, ready to deliver."),
    attachments: z
      .array(z.string())
      .optional()
      .describe("Paths of files to return with the text, such as /attachments/outline.md (optional)."),
  }),
  execute: async (_state, { draft }) => `Draft approved (${draft.trim().split(/\s+/u).length} words).`,
});
