import {
  agentDefinitionSchema,
  agentDeprecatedAliases,
  DEFINITION_KIND_SINGULAR,
  DEFINITION_KINDS,
  deprecationMessage,
  effectDefinitionSchema,
  HOOK_DEFINITION_KEYS,
  IDENTIFIER_PATTERN,
  modelDefinitionSchema,
  promptDefinitionSchema,
  promptDeprecatedAliases,
  safeParseDefinition,
  SIDE_CONFIG_KEYS,
  TOOL_DEFINITION_KEYS,
  toolDeprecatedAliases,
  toolEntryObjectSchema,
  unknownDefinitionKeys,
  type DefinitionKind,
  type DeprecatedAlias,
  type FormattedIssue,
  type ParsedDefinitionMap,
} from "@/server/spec";
import type { DiagnosticSink } from "./diagnostics";
import { didYouMean } from "./schema-fields";
import type { McpServerRecord } from "./mcp-servers";
import type { LoadedFile } from "./types";

/** A file whose default export passed its kind's schema, with its registry name. */
export interface ValidatedEntry<K extends DefinitionKind = DefinitionKind> {
  kind: K;
  name: string;
  file: string;
  absPath: string;
  definition: ParsedDefinitionMap[K];
  /** The default export as written (to tell string from object forms, or aliases from fields). */
  raw: Record<string, unknown>;
}

export type ValidatedSet = { [K in DefinitionKind]: Map<string, ValidatedEntry<K>> } & {
  /** Registry name of each file that has one (even when the file was rejected as a duplicate). */
  fileNames: Map<string, string>;
  /** The valid MCP servers of `mcp/` (set by the registry before linking). */
  mcpServers?: Map<string, McpServerRecord>;
};

const KNOWN_TOP_LEVEL: Record<DefinitionKind, readonly string[]> = {
  agents: Object.keys(agentDefinitionSchema.shape),
  prompts: Object.keys(promptDefinitionSchema.shape),
  models: Object.keys(modelDefinitionSchema.shape),
  tools: TOOL_DEFINITION_KEYS,
  hooks: HOOK_DEFINITION_KEYS,
  effects: Object.keys(effectDefinitionSchema.shape),
};
const KNOWN_TOOL_ENTRY = Object.keys(toolEntryObjectSchema.shape);

const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** A fix sentence derived from a schema message ("required: add `x: 1`" → "Add `x: 1` in agents/a.ts."). */
export function fixFromIssue(issue: FormattedIssue, file: string): string {
  const field = issue.path ? `\`${issue.path}\`` : "the default export";
  const required = /^required: (.*)$/s.exec(issue.message);
  if (required?.[1]) return `${capitalize(required[1])} to ${issue.path.includes(".") ? field.replace(/\.[^.]*`$/, "`") : "the definition"} in ${file}.`;
  const imperative = /:\s+((?:use|wrap|remove|add|import|give|tell|check|keep|rename|set)\b.*)$/is.exec(issue.message);
  if (imperative?.[1]) return `${capitalize(imperative[1])} (${field} in ${file}).`;
  return `Change ${field} in ${file}: ${/^must\b/.test(issue.message) ? "it " : ""}${issue.message}.`.replace(/\.\.$/, ".");
}

function singular(kind: DefinitionKind): string {
  return DEFINITION_KIND_SINGULAR[kind];
}

function rawName(kind: DefinitionKind, raw: Record<string, unknown>, baseName: string): string | undefined {
  if (kind === "tools") return baseName;
  const v = kind === "hooks" ? raw.id : raw.name;
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

function knownFieldsFor(kind: DefinitionKind, path: string): readonly string[] {
  const parts = path.split(".");
  if (parts.length === 1) return KNOWN_TOP_LEVEL[kind];
  if (kind === "agents" && (parts[0] === "sideA" || parts[0] === "sideB")) return SIDE_CONFIG_KEYS;
  if (kind === "prompts" && parts[0] === "tools") return KNOWN_TOOL_ENTRY;
  return [];
}

function deprecatedAliasesOf(entry: ValidatedEntry): DeprecatedAlias[] {
  switch (entry.kind) {
    case "agents":
      return agentDeprecatedAliases((entry as ValidatedEntry<"agents">).definition);
    case "prompts":
      return promptDeprecatedAliases((entry as ValidatedEntry<"prompts">).definition);
    case "tools":
      return toolDeprecatedAliases((entry as ValidatedEntry<"tools">).definition);
    default:
      return [];
  }
}

/**
 * Validates each loaded file against its kind's schema, reports unknown and deprecated fields, decides each
 * registry name (`name`; hooks: `id`; tools: the file name) and rejects duplicate names.
 */
export function validateFiles(files: readonly LoadedFile[], sink: DiagnosticSink): ValidatedSet {
  const accepted: ValidatedEntry[] = [];
  for (const f of files) {
    const raw = f.value as Record<string, unknown>;
    const name = rawName(f.kind, raw, f.baseName);
    const base = { kind: f.kind, file: f.file, ...(name !== undefined ? { name } : {}) };
    const parsed = safeParseDefinition(f.kind, raw);
    for (const path of unknownDefinitionKeys(f.kind, raw)) {
      const key = path.split(".").pop() ?? path;
      sink.warning({
        ...base,
        field: path,
        message: `Unknown field \`${path}\` in ${singular(f.kind)} ${name ? `"${name}"` : f.file}: it is ignored.`,
        fix: `Remove \`${key}\` from ${f.file} or correct its spelling.${didYouMean(key, knownFieldsFor(f.kind, path))}`,
      });
    }
    if (!parsed.success) {
      for (const issue of parsed.issues) {
        sink.error({
          ...base,
          field: issue.path,
          message: `Invalid ${singular(f.kind)} ${name ? `"${name}"` : "definition"}${issue.path ? ` at \`${issue.path}\`` : ""}: ${issue.message}.`.replace(/\.\.$/, "."),
          fix: fixFromIssue(issue, f.file),
        });
      }
      continue;
    }
    if (f.kind === "tools") {
      if (!IDENTIFIER_PATTERN.test(f.baseName) || f.baseName.length > 64) {
        sink.error({
          ...base,
          field: "",
          message: `The tool file name "${f.baseName}" is not a valid tool name: the file name is the tool's name and must start with a letter and hold only letters, digits, "_" and "-" (at most 64 characters).`,
          fix: `Rename ${f.file} to a snake_case name such as tools/${f.baseName.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[^A-Za-z]+/, "") || "my_tool"}${f.file.slice(f.file.lastIndexOf("."))}.`,
        });
        continue;
      }
      const declared = (parsed.data as ParsedDefinitionMap["tools"]).name;
      if (declared !== undefined && declared !== f.baseName) {
        sink.error({
          ...base,
          field: "name",
          message: `Tool name "${declared}" does not match its file name "${f.baseName}": a tool's registry name is its file name.`,
          fix: `Remove \`name\` from ${f.file} (the file name is the name), or rename the file to tools/${declared}${f.file.slice(f.file.lastIndexOf("."))}.`,
        });
        continue;
      }
    }
    const entry = { kind: f.kind, name: name ?? f.baseName, file: f.file, absPath: f.absPath, definition: parsed.data, raw } as ValidatedEntry;
    for (const alias of deprecatedAliasesOf(entry)) {
      sink.warning({
        ...base,
        name: entry.name,
        field: alias.field,
        message: `${capitalize(deprecationMessage(alias))} (${singular(f.kind)} "${entry.name}").`,
        fix: `Rename \`${alias.field}\` to \`${alias.field.replace(/[^.]+$/, alias.replacement)}\` in ${f.file}.`,
      });
    }
    accepted.push(entry);
  }
  return groupByName(accepted, sink);
}

function groupByName(entries: readonly ValidatedEntry[], sink: DiagnosticSink): ValidatedSet {
  const set = { fileNames: new Map<string, string>() } as ValidatedSet;
  for (const kind of DEFINITION_KINDS) (set as Record<string, unknown>)[kind] = new Map();
  for (const kind of DEFINITION_KINDS) {
    const byName = new Map<string, ValidatedEntry[]>();
    for (const e of entries) {
      if (e.kind !== kind) continue;
      set.fileNames.set(e.file, e.name);
      byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
    }
    const map = set[kind] as Map<string, ValidatedEntry>;
    for (const [name, group] of byName) {
      map.set(name, group[0]!);
      if (group.length < 2) continue;
      const files = group.map((g) => g.file);
      const nameField = kind === "tools" ? "" : kind === "hooks" ? "id" : "name";
      for (const g of group) {
        const others = files.filter((f) => f !== g.file);
        sink.error({
          kind,
          file: g.file,
          name,
          field: nameField,
          message: `Duplicate ${singular(kind)} ${kind === "hooks" ? "id" : "name"} "${name}": defined in ${files.join(" and ")}.${g === group[0] ? "" : ` Only ${files[0]} is used.`}`,
          fix:
            kind === "tools"
              ? `Keep one file per tool name: delete or rename ${others.join(", ")} (a tool's name is its file name, whatever the extension).`
              : `Give each ${singular(kind)} a unique ${nameField}: change it in ${g.file} or in ${others.join(", ")}.`,
        });
      }
    }
  }
  return set;
}

