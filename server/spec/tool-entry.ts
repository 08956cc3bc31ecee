import { z } from "zod";
import { envNameSchema, referenceSchema } from "./names";
import { envValuesSchema, legacyTenvsSchema, optionsRecordSchema } from "./shared-fields";

const propertyName = (field: string) => z.string().min(1, { error: `${field} must name an argument field` });

/** Object form of `immediate` on a subagent entry: per-instance env relationships. */
export const immediateConfigSchema = z.object({
  /** Scoped env whose value may be shown to a bootstrap model as the instance name hint. */
  nameEnv: envNameSchema.optional(),
  /** Scoped env whose value may be shown to a bootstrap model as the instance description hint. */
  descriptionEnv: envNameSchema.optional(),
  /** Scoped env names copied into each child; never shown to a model. */
  scopedEnv: z.array(envNameSchema).optional(),
});

/** Object form of `resumable` on a subagent entry. */
export const resumableConfigSchema = z.object({
  /** Which child side receives parent messages (`side_a` → queued as `user`, `side_b` → as `assistant`). */
  receives_messages: z.enum(["side_a", "side_b"], {
    error: (issue) =>
      issue.input === undefined
        ? "required: add `receives_messages: 'side_a'` (or 'side_b')"
        : `receives_messages must be 'side_a' or 'side_b' (got ${JSON.stringify(issue.input)})`,
  }),
  /** Cap on live instances of this subagent for one parent. */
  maxInstances: z
    .number({ error: "maxInstances must be a number" })
    .int({ error: "maxInstances must be a whole number" })
    .positive({ error: "maxInstances must be at least 1" })
    .optional(),
  /** `implicit` (default): completion/failure are queued to the parent; `explicit`: only `notifyParent`. */
  parentCommunication: z
    .enum(["implicit", "explicit"], {
      error: (issue) => `parentCommunication must be 'implicit' or 'explicit' (got ${JSON.stringify(issue.input)})`,
    })
    .optional(),
});

const immediateSchema = z.union([z.boolean(), immediateConfigSchema], {
  error: "immediate must be true, false or { nameEnv?, descriptionEnv?, scopedEnv?: [...] }",
});
const resumableSchema = z.union([z.literal(false), resumableConfigSchema], {
  error: "resumable must be false or { receives_messages: 'side_a' | 'side_b', maxInstances?, parentCommunication? }",
});

/** Fields only meaningful on a subagent entry. */
export const SUBAGENT_ONLY_FIELDS = [
  "blocking",
  "immediate",
  "optional",
  "resumable",
  "initAgentNameProperty",
] as const;
/** Fields only meaningful on a subprompt entry. */
export const SUBPROMPT_ONLY_FIELDS = ["includeTextResponse", "includeToolCalls", "includeErrors"] as const;
/** Argument mapping fields shared by subprompt and subagent entries. */
export const INIT_MAPPING_FIELDS = ["initUserMessageProperty", "initAttachmentsProperty"] as const;
/** Fields only meaningful on a callable tool entry. */
export const TOOL_CONFIG_FIELDS = ["env", "options", "tenvs"] as const;

const subagentShape = {
  /** Whether the parent waits for the child's result. @default true */
  blocking: z.boolean().optional(),
  /** Tool-call argument used as the child's first message. */
  initUserMessageProperty: propertyName("initUserMessageProperty").optional(),
  /** Tool-call argument holding attachment path(s) copied to the child. */
  initAttachmentsProperty: propertyName("initAttachmentsProperty").optional(),
  /** Tool-call argument used as the child's display name (tag `name:<value>`). */
  initAgentNameProperty: propertyName("initAgentNameProperty").optional(),
  /** Run as soon as the prompt becomes active, before its first LLM step. */
  immediate: immediateSchema.optional(),
  /** Env flag name: the branch is enabled only when it is `true`, `1` or `yes`. */
  optional: envNameSchema.optional(),
  /** `false` (default) or the resumable configuration. */
  resumable: resumableSchema.optional(),
};

const subpromptShape = {
  /** Include the subprompt's text response in the result. @default true */
  includeTextResponse: z.boolean().optional(),
  /** Serialise the subprompt's tool calls and results into the result. @default true */
  includeToolCalls: z.boolean().optional(),
  /** Serialise the subprompt's errors into the result. @default true */
  includeErrors: z.boolean().optional(),
  initUserMessageProperty: subagentShape.initUserMessageProperty,
  initAttachmentsProperty: subagentShape.initAttachmentsProperty,
};

const toolConfigShape = {
  /** Env values provided to this tool. */
  env: envValuesSchema.optional(),
  /** Static options passed to the tool at execution time. */
  options: optionsRecordSchema.optional(),
  /** @deprecated Use `env`. */
  tenvs: legacyTenvsSchema.optional(),
};

const nameField = { name: referenceSchema("tool name") };

/** Spec `SubagentToolConfig`: invoking a `dual_ai` agent as a subagent. */
export const subagentToolConfigSchema = z.object({ ...nameField, ...subagentShape });
/** Spec `SubpromptConfig`: a prompt called as a tool. */
export const subpromptConfigSchema = z.object({ ...nameField, ...subpromptShape });
/** Spec `PromptToolConfig`: a callable tool with env values and options. */
export const promptToolConfigSchema = z.object({ ...nameField, ...toolConfigShape });

/**
 * Object form of a prompt `tools` entry. All three config shapes have `name`, so the object keeps every field;
 * the registry decides the kind from what `name` refers to and can warn with `fieldsNotAllowedFor`.
 */
export const toolEntryObjectSchema = z.object({
  ...nameField,
  ...subagentShape,
  ...subpromptShape,
  ...toolConfigShape,
});

/** A prompt `tools` entry: a name, or an object config. */
export const toolEntrySchema = z.union([referenceSchema("tool name"), toolEntryObjectSchema], {
  error: (issue) =>
    `each tool entry must be a name or an object { name: '<tool, prompt or agent name>', ... } ` +
    `(got ${issue.input === null ? "null" : Array.isArray(issue.input) ? "array" : typeof issue.input})`,
});

export type SubagentToolConfig = z.output<typeof subagentToolConfigSchema>;
export type SubpromptConfig = z.output<typeof subpromptConfigSchema>;
export type PromptToolConfig = z.output<typeof promptToolConfigSchema>;
/** Object form of a tools entry with every field a kind may carry. */
export type ToolEntryObject = z.output<typeof toolEntryObjectSchema>;
/** A parsed tools entry: string or object. */
export type ToolEntry = z.output<typeof toolEntrySchema>;
/** Immediate configuration (object form). */
export type ImmediateConfig = z.output<typeof immediateConfigSchema>;
/** Resumable configuration (object form). */
export type ResumableConfig = z.output<typeof resumableConfigSchema>;
/** What a tools entry resolves to once the registry knows what `name` refers to. */
export type ToolEntryKind = "tool" | "subprompt" | "subagent" | "handoff";

/** The name a tools entry refers to. */
export function toolEntryName(entry: ToolEntry): string {
  return typeof entry === "string" ? entry : entry.name;
}

/** The object form of a tools entry (`'x'` becomes `{ name: 'x' }`). */
export function normalizeToolEntry(entry: ToolEntry): ToolEntryObject {
  return typeof entry === "string" ? { name: entry } : entry;
}

function presentFields(entry: ToolEntry, fields: readonly string[]): string[] {
  if (typeof entry === "string") return [];
  const record = entry as Record<string, unknown>;
  return fields.filter((f) => record[f] !== undefined);
}

/** True when the entry sets a subagent-only field (`blocking`, `immediate`, `optional`, `resumable`, `initAgentNameProperty`). */
export function hasSubagentFields(entry: ToolEntry): boolean {
  return presentFields(entry, SUBAGENT_ONLY_FIELDS).length > 0;
}

/** True when the entry sets a subprompt-only field (`includeTextResponse`, `includeToolCalls`, `includeErrors`). */
export function hasSubpromptFields(entry: ToolEntry): boolean {
  return presentFields(entry, SUBPROMPT_ONLY_FIELDS).length > 0;
}

/** True when the entry sets a callable-tool field (`env`, `options`, `tenvs`). */
export function hasToolConfigFields(entry: ToolEntry): boolean {
  return presentFields(entry, TOOL_CONFIG_FIELDS).length > 0;
}

/**
 * Fields set on `entry` that have no meaning for `kind`, in declaration order. A handoff accepts no field but
 * `name`; a callable tool accepts `env`/`options`/`tenvs`; a subprompt accepts its own fields and the init
 * mappings; a subagent accepts its own fields and the init mappings.
 */
export function fieldsNotAllowedFor(entry: ToolEntry, kind: ToolEntryKind): string[] {
  const allowed: Record<ToolEntryKind, readonly string[]> = {
    tool: TOOL_CONFIG_FIELDS,
    subprompt: [...SUBPROMPT_ONLY_FIELDS, ...INIT_MAPPING_FIELDS],
    subagent: [...SUBAGENT_ONLY_FIELDS, ...INIT_MAPPING_FIELDS],
    handoff: [],
  };
  const all = [...SUBAGENT_ONLY_FIELDS, ...SUBPROMPT_ONLY_FIELDS, ...INIT_MAPPING_FIELDS, ...TOOL_CONFIG_FIELDS];
  const forbidden = all.filter((f) => !allowed[kind].includes(f));
  return presentFields(entry, forbidden);
}
