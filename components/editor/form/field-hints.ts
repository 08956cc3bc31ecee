/** Help texts for the fields (from the spec's documentation), keyed by field name. */
export const FIELD_HINTS: Record<string, string> = {
  maxSessionTurns: "dual_ai: the session ends when both sides completed this many turns.",
  exposeAsTool: "Let prompts call this agent as a tool: a handoff (ai_human) or a subagent (dual_ai).",
  toolDescription: "What the model is told this does when it is offered as a tool.",
  title: "Human-readable name shown in lists.",
  label: "Shown in the UI and logs for this side (e.g. Writer).",
  prompt: "The prompt this side runs.",
  stopOnResponse: "End the side's turn when the model answers with text and no tool calls.",
  stopTool: "End the side's turn when this tool is called.",
  stopToolResponseProperty: "Argument of the stop tool whose value becomes the stored answer.",
  maxSteps: "Per-side safety limit of LLM steps in one turn.",
  sessionStop: "Tool whose successful call ends the whole session with a result.",
  sessionFail: "Tool whose successful call ends the whole session with a failure.",
  sessionStatus: "Tool that publishes a status update without ending the session.",
  messageProperty: "Tool argument whose value becomes the lifecycle message.",
  attachmentsProperty: "Tool argument holding attachment path(s).",
  model: "Model name (a file in models/).",
  includeChat: "Include the full chat history in the context.",
  includePastTools: "Include past tool calls and results in the context.",
  parallelToolCalls: "Allow several tool calls in one step.",
  toolChoice: "auto: the model decides; none: no tools; required: must call a tool.",
  recentImageThreshold: "How many recent messages keep their images in context.",
  requiredSchema: "Arguments when the prompt is called as a tool (code: edit it in the file).",
  provider: "openai = any OpenAI-compatible Chat Completions endpoint.",
  baseURL: "Endpoint base URL; defaults to OPENAI_BASE_URL.",
  apiKeyEnv: "Name of the variable holding the API key; defaults to OPENAI_API_KEY.",
  fallbacks: "Models tried in order when this one fails.",
  inputPrice: "USD per million input tokens.",
  outputPrice: "USD per million output tokens.",
  cachedPrice: "USD per million cached input tokens.",
  blocking: "The parent waits for the child's result (default). Off: the result arrives later as a queued message.",
  resumable: "The child stays addressable after it reports (subagent_create / subagent_message).",
  receives_messages: "Which child side receives the parent's messages.",
  maxInstances: "Cap on live instances for one parent.",
  parentCommunication: "implicit: completion and failure are queued to the parent; explicit: only notifyParent.",
  immediate: "Spawn as soon as the prompt becomes active, before its first step.",
  optional: "Env flag: the branch is offered only when it is true, 1 or yes.",
  initUserMessageProperty: "Tool argument used as the child's first message.",
  initAttachmentsProperty: "Tool argument holding attachment paths copied to the child.",
  initAgentNameProperty: "Tool argument used as the child's display name.",
  includeTextResponse: "Include the subprompt's text response in the result.",
  includeToolCalls: "Serialise the subprompt's tool calls into the result.",
  includeErrors: "Serialise the subprompt's errors into the result.",
  scoped: "Not inherited from the parent thread; belongs to the declarer's subtree.",
  required: "A value must be provided before a thread can run.",
  hooks: "Hook ids, run in order.",
  env: "Default variable values.",
  variables: "Variables this definition declares.",
};

/**
 * Help texts that depend on where the field is: `<kind>:<path>` with `*` for list indexes, tried before the name. A
 * name shared by several fields (`type`, `model`, `prompt`) must not show one field's help on another.
 */
export const PATH_HINTS: Record<string, string> = {
  "agents:type": "ai_human: an AI side A and a person on side B. dual_ai: both sides are AI.",
  "*:variables.*.type": "text: a plain value. secret: write-only; never shown back, and never sent to a model, an event or a log.",
  "*:variables.*.name": "The variable's name, as tools and prompts read it (e.g. SUPPORT_REGION).",
  "*:variables.*.required": "A value must be provided before a thread can run.",
  "*:variables.*.description": "What the value is for; shown where people enter it.",
  "models:model": "The provider's model id (e.g. gpt-4.1-mini).",
  "prompts:prompt.*.prompt": "The prompt whose text is included here.",
};

/** Names whose help holds only where PATH_HINTS says (no help elsewhere). */
const PATH_ONLY = new Set(["type"]);

/** The help text of the field at `path` (a full dotted path) in a definition of `kind`. */
export function hintFor(kind: string, path: string, hintKey: string | undefined): string | undefined {
  const pattern = path.replace(/(^|\.)\d+(?=\.|$)/g, "$1*");
  const byPath = PATH_HINTS[`${kind}:${pattern}`] ?? PATH_HINTS[`*:${pattern}`];
  if (byPath !== undefined) return byPath;
  if (!hintKey || PATH_ONLY.has(hintKey)) return undefined;
  return FIELD_HINTS[hintKey];
}

/** Multi-line text fields. */
export const MULTILINE = new Set(["description", "toolDescription", "content"]);

/** Deprecated fields: shown only when the file uses them. */
export const DEPRECATED = new Set(["failSessionTool", "statusTool", "stopSessionTool", "endSessionTool", "tenvs"]);

/** Defaults the spec gives to fields its schema leaves optional (shown as the field's value when unwritten). */
export const SEMANTIC_DEFAULTS: Record<string, unknown> = {
  blocking: true,
  includeTextResponse: true,
  includeToolCalls: true,
  includeErrors: true,
  parentCommunication: "implicit",
};
