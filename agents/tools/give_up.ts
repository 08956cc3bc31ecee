import { defineTool } from "@studio/spec";
import { z } from "zod";

/**
 * The writer's way out. Bound as `sessionFail` of `draft_and_review`: a successful call ends the session and the
 * `reason` argument is reported to the requester as the failure.
 */
export default defineTool({
  description:
    "Stop working on the brief and report why it cannot be done (missing facts, contradictory or unsafe request). " +
    "Explain what the requester must provide or change.",
  args: z.object({
    reason: z.string().min(1).describe("Why the brief cannot be completed and what would unblock it."),
  }),
  execute: async () => "Reported to the requester; the session ends.",
});
