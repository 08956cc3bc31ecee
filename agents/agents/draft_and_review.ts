import { defineAgent } from "@studio/spec";

/**
 * A writer/reviewer loop run as a subagent. The session ends when the Reviewer calls `approve_draft` (success: the
 * approved text goes back to the caller) or the Writer calls `give_up` (failure with a reason), or after 6 turns
 * per side.
 */
export default defineAgent({
  name: "draft_and_review",
  type: "dual_ai",
  title: "Draft and review",
  description: "A writer drafts from a brief; a reviewer checks it against the brief until it is approved.",
  exposeAsTool: true,
  toolDescription:
    "Write a new text from a brief. A writer drafts it and a reviewer checks it against the brief and the house " +
    "style, asking for revisions until it is right. Returns the approved text, or the reason it could not be written.",
  maxSessionTurns: 6,
  sideA: {
    label: "Writer",
    prompt: "drafter",
    stopOnResponse: true,
    maxSteps: 6,
    sessionFail: { name: "give_up", messageProperty: "reason" },
  },
  sideB: {
    label: "Reviewer",
    prompt: "reviewer",
    // A reply with revision notes ends the Reviewer's turn and hands the draft back to the Writer.
    stopOnResponse: true,
    maxSteps: 6,
    sessionStop: { name: "approve_draft", messageProperty: "draft", attachmentsProperty: "attachments" },
    sessionStatus: { name: "update_status", messageProperty: "status" },
  },
});
