/**
 * The prompt text editor's language: a prompt (a string, or parts) as one text where
 * - `{{NAME}}` is a variable part (`{ type: "env", property: "NAME" }`),
 * - `{{> name}}` includes another prompt (`{ type: "include", prompt: "name" }`),
 * - `@name` mentions a tool, subprompt or agent the prompt offers (it stays text: the model reads it).
 * Text without `{{…}}` is stored as a plain string; with them, as parts. `textToPrompt(promptToText(v))` gives `v`
 * back for every prompt whose text parts hold no `{{`. Diagnostics name undefined variables, unknown prompts and
 * mentions of tools that do not exist or that the prompt does not offer. Browser-safe.
 */
import { isDocObject, type DocObject, type DocValue } from "./doc";

export interface PromptToken {
  kind: "env" | "include" | "mention";
  name: string;
  from: number;
  to: number;
}

const TOKEN = /\{\{\s*(>)?\s*([A-Za-z_][\w.-]*)\s*\}\}|(?<![\w@])@([A-Za-z_][\w-]*)/g;

/** Every token of `text`, in order. */
export function promptTokens(text: string): PromptToken[] {
  const out: PromptToken[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const from = m.index;
    const to = from + m[0].length;
    if (m[3] !== undefined) out.push({ kind: "mention", name: m[3], from, to });
    else out.push({ kind: m[1] ? "include" : "env", name: m[2]!, from, to });
  }
  return out;
}

/** The editor text of a prompt value (a string as it is; parts joined, with variables and includes as tokens). */
export function promptToText(value: DocValue | undefined): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  return value
    .map((part) => {
      if (!isDocObject(part)) return "";
      if (part.type === "text") return typeof part.content === "string" ? part.content : "";
      if (part.type === "env") return `{{${String(part.property ?? "")}}}`;
      if (part.type === "include") return `{{> ${String(part.prompt ?? "")}}}`;
      return "";
    })
    .join("");
}

/** The prompt value of an editor text: a string when it holds no variable or include, else parts. */
export function textToPrompt(text: string): DocValue {
  const tokens = promptTokens(text).filter((t) => t.kind !== "mention");
  if (tokens.length === 0) return text;
  const parts: DocObject[] = [];
  let at = 0;
  for (const t of tokens) {
    if (t.from > at) parts.push({ type: "text", content: text.slice(at, t.from) });
    parts.push(t.kind === "env" ? { type: "env", property: t.name } : { type: "include", prompt: t.name });
    at = t.to;
  }
  if (at < text.length) parts.push({ type: "text", content: text.slice(at) });
  return parts;
}

export interface PromptTextContext {
  /** This prompt's name (it may not include itself). */
  self: string;
  tools: readonly string[];
  prompts: readonly string[];
  agents: readonly string[];
  /** Variables declared anywhere or given a value (an env part of another name is undefined). */
  variables: readonly string[];
  /** The names in this prompt's tools list. */
  offered: readonly string[];
}

export interface PromptTextIssue {
  from: number;
  to: number;
  severity: "error" | "warning";
  message: string;
}

/** Undefined variables, unknown or self includes, and mentions of unknown tools or tools the prompt does not offer. */
export function promptTextIssues(text: string, ctx: PromptTextContext): PromptTextIssue[] {
  const out: PromptTextIssue[] = [];
  for (const t of promptTokens(text)) {
    const at = { from: t.from, to: t.to };
    if (t.kind === "env" && !ctx.variables.includes(t.name)) {
      out.push({ ...at, severity: "warning", message: `Variable "${t.name}" is not defined: declare it in a variables list or give it a value.` });
    } else if (t.kind === "include" && t.name === ctx.self) {
      out.push({ ...at, severity: "error", message: `A prompt cannot include itself.` });
    } else if (t.kind === "include" && !ctx.prompts.includes(t.name)) {
      out.push({ ...at, severity: "error", message: `Prompt "${t.name}" does not exist.` });
    } else if (t.kind === "mention") {
      const known = ctx.tools.includes(t.name) || ctx.prompts.includes(t.name) || ctx.agents.includes(t.name);
      if (!known) out.push({ ...at, severity: "warning", message: `Unknown tool "${t.name}": no tool, prompt or agent has this name.` });
      else if (!ctx.offered.includes(t.name)) out.push({ ...at, severity: "warning", message: `"${t.name}" is not in this prompt's tools: the model cannot call it.` });
    }
  }
  return out;
}
