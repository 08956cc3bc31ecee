import { definePrompt } from "@studio/spec";

/**
 * The shared house style, included by every other prompt through `{ type: 'include', prompt: 'house_style' }`.
 * Change the voice of the whole graph here. `AUDIENCE` can be set per thread; the prompt's `env` gives the default.
 */
export default definePrompt({
  name: "house_style",
  toolDescription: "The house writing style shared by every prompt of the writing assistant.",
  model: "fast",
  prompt: [
    {
      type: "text",
      content:
        "House style: write plain, concrete English. Prefer short sentences and active verbs. Cut filler, " +
        "hedging and clichés. Keep facts the user gave you; never invent figures, quotes or sources. " +
        "Use Markdown headings and lists only when they help the reader. Write for this audience: ",
    },
    { type: "env", property: "AUDIENCE" },
    { type: "text", content: "." },
  ],
  variables: [
    {
      name: "AUDIENCE",
      type: "text",
      required: false,
      description: "Who the texts are written for, e.g. 'engineers new to the codebase'.",
    },
  ],
  env: { AUDIENCE: "curious adult readers without specialist knowledge" },
});
