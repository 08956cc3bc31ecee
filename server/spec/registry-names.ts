/** Definition kinds, as the folder names under `AGENTS_DIR` (`agents/agents/*.ts`, `agents/prompts/*.ts`, ...). */
export const DEFINITION_KINDS = ["agents", "prompts", "models", "tools", "hooks", "effects"] as const;
/** A definition kind (plural folder name). */
export type DefinitionKind = (typeof DEFINITION_KINDS)[number];

/** Singular name of each kind, for messages ("agent", "prompt", ...). */
export const DEFINITION_KIND_SINGULAR = {
  agents: "agent",
  prompts: "prompt",
  models: "model",
  tools: "tool",
  hooks: "hook",
  effects: "effect",
} as const satisfies Record<DefinitionKind, string>;
/** Singular kind name. */
export type DefinitionKindSingular = (typeof DEFINITION_KIND_SINGULAR)[DefinitionKind];

/** The helper a file of each kind calls in its default export. */
export const DEFINE_HELPERS = {
  agents: "defineAgent",
  prompts: "definePrompt",
  models: "defineModel",
  tools: "defineTool",
  hooks: "defineHook",
  effects: "defineEffect",
} as const satisfies Record<DefinitionKind, string>;

/**
 * Where each kind's registry name comes from: the `name` field, the hook `id`, or (tools) the file name
 * (a tool's `name` field, when present, must equal the file name).
 */
export const DEFINITION_NAME_SOURCE = {
  agents: "name",
  prompts: "name",
  models: "name",
  tools: "file",
  hooks: "id",
  effects: "name",
} as const satisfies Record<DefinitionKind, "name" | "id" | "file">;

/** File extensions the loader accepts for definition files. */
export const DEFINITION_FILE_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"] as const;

/** True when `value` is a definition kind. */
export function isDefinitionKind(value: string): value is DefinitionKind {
  return (DEFINITION_KINDS as readonly string[]).includes(value);
}

/**
 * Folders of file routes under `AGENTS_DIR`: `api/**` holds thread endpoints (`defineThreadEndpoint`, mounted under
 * `/api/threads/:threadId/`), `controllers/**` holds controllers (`defineController`, mounted under `/api/controllers/`).
 */
export const ROUTE_KINDS = ["api", "controllers"] as const;
/** A route folder. */
export type RouteKind = (typeof ROUTE_KINDS)[number];
