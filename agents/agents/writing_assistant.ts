import { defineAgent } from "@studio/spec";

/** The entry point: a chat with the user. Longer pieces go to the `draft_and_review` subagent. */
export default defineAgent({
  name: "writing_assistant",
  type: "ai_human",
  title: "Writing assistant",
  description:
    "Plans, drafts, polishes and saves texts with you. Longer pieces are written by a writer and checked by a " +
    "reviewer before you see them.",
  sideA: {
    label: "Assistant",
    prompt: "writing_assistant",
    maxSteps: 12,
  },
});
