import type { Rule } from "../fake-llm/server";

const DRAFT_1 = "We are launching Studio today: build, run and inspect multi-agent systems in one place.";
const DRAFT_2 =
  "Today we launch Studio. Build multi-agent systems from plain TypeScript files, watch every child agent work live, " +
  "and never lose work in a crash. Try it in one command.";

/**
 * The scripted "model" of `npm run demo`: stateless rules (they match the conversation, not a counter), so every new
 * thread of the example writing assistant plays the same story: the assistant delegates to the draft_and_review
 * subagent, the Writer drafts, the Reviewer sets a status and asks for a change, the Writer revises, the Reviewer
 * approves, and the assistant delivers the text.
 */
export const demoScript: Rule[] = [
  // Writing assistant
  { when: { system_contains: "You are a writing assistant", last_role: "tool" }, token_delay_ms: 25, respond: { content: `Here is your announcement, approved by the reviewer:\n\n> ${DRAFT_2}\n\n(This reply comes from the scripted demo model.)` } },
  {
    when: { system_contains: "You are a writing assistant", last_role: "user" },
    delay_ms: 300,
    respond: { content: "I'll have a writer draft it and a reviewer check it.", tool_calls: [{ name: "draft_and_review", arguments: { brief: "A short launch announcement for Studio: builds multi-agent systems, shows every child agent live, never loses work. Under 60 words.", title: "Launch announcement" } }] },
  },
  // Reviewer (side B of the subagent)
  { when: { system_contains: "You are the Reviewer", any_contains: "Today we launch Studio" }, delay_ms: 400, respond: { tool_calls: [{ name: "approve_draft", arguments: { draft: DRAFT_2 } }] } },
  { when: { system_contains: "You are the Reviewer", last_role: "tool" }, token_delay_ms: 25, respond: { content: "Please open with the news itself and say what users can do with it, in under 60 words." } },
  { when: { system_contains: "You are the Reviewer" }, delay_ms: 400, respond: { tool_calls: [{ name: "update_status", arguments: { status: "Round 1: the opening needs the news first" } }] } },
  // Writer (side A of the subagent)
  { when: { system_contains: "You are the Writer", any_contains: "open with the news" }, token_delay_ms: 25, respond: { content: DRAFT_2 } },
  { when: { system_contains: "You are the Writer" }, token_delay_ms: 25, respond: { content: DRAFT_1 } },
  // Anything else (another prompt, e.g. polish_text)
  { token_delay_ms: 25, respond: { content: "(scripted demo) This is a scripted stand-in for a model; point OPENAI_BASE_URL at a real one to get real answers." } },
];
