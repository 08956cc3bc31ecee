/** Completion lists for reference fields: prompt, model, tool, hook and variable names, argument fields. */
import { isDocObject, type DocObject, type DocValue, type EditableKind } from "@/shared/editor/doc";
import { docName, type Docs } from "./editor-state";
import { docByNodeKind, liveDocs, namesOf, variableNames } from "./selectors";

export type EntryKind = "tool" | "subprompt" | "subagent" | "handoff";

const nameOf = (v: DocValue | undefined) => (typeof v === "string" ? v : isDocObject(v) && typeof v.name === "string" ? v.name : undefined);

export function entryKindIn(docs: Docs, name: string): EntryKind | undefined {
  if (docByNodeKind(docs, "tools", name)) return "tool";
  if (docByNodeKind(docs, "prompts", name)) return "subprompt";
  const agent = docByNodeKind(docs, "agents", name);
  if (!agent) return undefined;
  return agent.value?.type === "dual_ai" ? "subagent" : "handoff";
}

/** Argument fields of what a tools entry or a bound tool refers to. */
function argFields(docs: Docs, name: string | undefined): string[] | undefined {
  if (!name) return undefined;
  const tool = docByNodeKind(docs, "tools", name);
  if (tool) return tool.facts.argFields;
  const prompt = docByNodeKind(docs, "prompts", name);
  if (prompt) return prompt.facts.schemaFields;
  const agent = docByNodeKind(docs, "agents", name);
  const sideA = agent?.value && isDocObject(agent.value.sideA) ? nameOf(agent.value.sideA.prompt) : undefined;
  return sideA ? docByNodeKind(docs, "prompts", sideA)?.facts.schemaFields : undefined;
}

function offeredBy(docs: Docs, promptName: string | undefined): string[] {
  const prompt = promptName ? docByNodeKind(docs, "prompts", promptName) : undefined;
  const tools = prompt?.value && Array.isArray(prompt.value.tools) ? prompt.value.tools.map(nameOf).filter((x): x is string => !!x) : [];
  return tools.length > 0 ? tools : namesOf(docs, "tools");
}

/** Suggestions for the field at `fullPath` (indexes as digits) of `doc`, a definition of `kind`. */
export function suggestFor(docs: Docs, kind: EditableKind, fullPath: string, doc: DocObject): string[] | undefined {
  const p = fullPath.replace(/\.\d+(?=\.|$)/g, ".#");
  const vars = () => variableNames(docs);
  if (/(^|\.)hooks\.#$/.test(p)) return namesOf(docs, "hooks");
  if (/(^|\.)variables\.#\.name$/.test(p) || /\.(optional|nameEnv|descriptionEnv)$/.test(p) || /scopedEnv\.#$/.test(p) || p === "apiKeyEnv") return vars();
  if (kind === "agents") {
    const side = /^(side[AB])\./.exec(p)?.[1];
    const sideValue = side && isDocObject(doc[side]) ? (doc[side] as DocObject) : undefined;
    if (/^side[AB]\.prompt$/.test(p)) return namesOf(docs, "prompts");
    if (/^side[AB]\.(stopTool|sessionStop|sessionFail|sessionStatus)(\.name)?$/.test(p)) return offeredBy(docs, nameOf(sideValue?.prompt));
    const binding = /^side[AB]\.(sessionStop|sessionFail|sessionStatus)\.(messageProperty|attachmentsProperty)$/.exec(p);
    if (binding && sideValue) return argFields(docs, nameOf(sideValue[binding[1]!]));
    if (/^side[AB]\.stopToolResponseProperty$/.test(p) && sideValue) return argFields(docs, nameOf(sideValue.stopTool));
  }
  if (kind === "prompts") {
    if (p === "model") return namesOf(docs, "models");
    if (p === "prompt.#.prompt") return namesOf(docs, "prompts").filter((n) => n !== doc.name);
    if (p === "prompt.#.property") return vars();
    if (p === "tools.#" || p === "tools.#.name") {
      const agents = liveDocs(docs).filter((d) => d.kind === "agents").map(docName);
      return [...namesOf(docs, "tools"), ...namesOf(docs, "prompts").filter((n) => n !== doc.name), ...agents];
    }
    const mapping = /^tools\.(\d+)\.(initUserMessageProperty|initAttachmentsProperty|initAgentNameProperty)$/.exec(fullPath);
    if (mapping && Array.isArray(doc.tools)) return argFields(docs, nameOf(doc.tools[Number(mapping[1])]));
  }
  if (kind === "models") {
    if (p === "fallbacks.#") return namesOf(docs, "models").filter((n) => n !== doc.name);
    if (p === "provider") return ["openai"];
  }
  return undefined;
}
