import { z } from "zod";
import type { Definitions, ResolvedToolEntry } from "../definitions";
import type { ChatTool } from "../llm/types";

type JsonSchema = Record<string, unknown>;
const cache = new WeakMap<object, JsonSchema>();
const EMPTY: JsonSchema = { type: "object", properties: {}, additionalProperties: false };

/** JSON schema of a zod object schema, as the model sees it (cached per schema instance). */
export function toParameters(schema: unknown): JsonSchema {
  if (!schema || typeof schema !== "object") return EMPTY;
  const hit = cache.get(schema);
  if (hit) return hit;
  const json = z.toJSONSchema(schema as z.ZodType, { io: "input", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  if (json.type !== "object") json.type = "object";
  json.properties ??= {};
  cache.set(schema, json);
  return json;
}

/** Add string / string-array properties for argument mappings the schema does not already declare. */
function withMappedFields(base: JsonSchema, entry: ResolvedToolEntry): JsonSchema {
  if (entry.kind !== "subprompt" && entry.kind !== "subagent") return base;
  const cfg = entry.config;
  const props = { ...((base.properties as Record<string, unknown>) ?? {}) };
  const required = new Set((base.required as string[] | undefined) ?? []);
  const msg = cfg.initUserMessageProperty;
  if (msg && !props[msg]) {
    props[msg] = { type: "string", description: "The message to send" };
    required.add(msg);
  }
  const att = cfg.initAttachmentsProperty;
  if (att && !props[att]) props[att] = { type: "array", items: { type: "string" }, description: "Attachment paths such as /attachments/report.pdf" };
  const nameProp = entry.kind === "subagent" ? entry.config.initAgentNameProperty : undefined;
  if (nameProp && !props[nameProp]) {
    props[nameProp] = { type: "string", description: "A short name for this instance" };
    required.add(nameProp);
  }
  return { ...base, properties: props, ...(required.size > 0 ? { required: [...required] } : {}) };
}

/** Built tools per definitions snapshot (immutable) and entry: every step of a prompt offers the same objects. */
const toolCache = new WeakMap<Definitions, WeakMap<ResolvedToolEntry, ChatTool | null>>();

/** The function tool the model is offered for one resolved prompt tool entry (cached per registry snapshot). */
export function chatToolFor(defs: Definitions, entry: ResolvedToolEntry): ChatTool | null {
  let perDefs = toolCache.get(defs);
  if (!perDefs) {
    perDefs = new WeakMap();
    toolCache.set(defs, perDefs);
  }
  if (perDefs.has(entry)) return perDefs.get(entry)!;
  const tool = buildChatTool(defs, entry);
  perDefs.set(entry, tool);
  return tool;
}

function buildChatTool(defs: Definitions, entry: ResolvedToolEntry): ChatTool | null {
  switch (entry.kind) {
    case "tool": {
      const tool = defs.tool(entry.name);
      if (!tool) return null;
      return { type: "function", function: { name: entry.name, description: tool.description, parameters: toParameters(tool.args) } };
    }
    case "subprompt": {
      const p = defs.prompt(entry.name);
      if (!p) return null;
      const params = withMappedFields(p.requiredSchema ? toParameters(p.requiredSchema) : EMPTY, entry);
      return { type: "function", function: { name: entry.name, description: p.toolDescription || `Run the ${entry.name} prompt`, parameters: params } };
    }
    case "mcp":
      // Its schema comes from the live server: `offeredTools` asks for it (kernel/mcp-tools.ts).
      return null;
    case "handoff":
    case "subagent": {
      const agent = defs.agent(entry.name);
      if (!agent) return null;
      const sideA = defs.prompt(agent.sideA.prompt);
      const params = withMappedFields(sideA?.requiredSchema ? toParameters(sideA.requiredSchema) : EMPTY, entry);
      const description = agent.toolDescription ?? agent.description ?? `Call the ${entry.name} agent`;
      return { type: "function", function: { name: entry.name, description, parameters: params } };
    }
  }
}
