import { defineTool } from "@studio/spec";
import { z } from "zod";

/**
 * Publishes progress. Bound as `sessionStatus` of `draft_and_review`: the `status` argument becomes this run's status
 * in the parent's list of subagents; the session goes on.
 */
export default defineTool({
  description: "Publish a one-line progress status for the requester, e.g. 'Round 2: asked for a shorter intro'.",
  args: z.object({
    status: z.string().min(1).max(200).describe("One short line describing the current progress."),
  }),
  execute: async () => "Status updated.",
});
