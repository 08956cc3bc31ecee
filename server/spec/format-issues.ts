import type { z } from "zod";
import { describeValueType } from "./zod-like";

/** A validation problem, ready to show: a dotted field path and a message that says how to fix it. */
export interface FormattedIssue {
  /** Dotted path from the definition's root, e.g. `sideA.sessionStop.name` or `tools.2.name` ('' = the whole value). */
  path: string;
  /** What is wrong and what to write instead. */
  message: string;
  /** The zod issue code (`invalid_type`, `custom`, ...). */
  code: string;
}

type Issue = z.core.$ZodIssue;

/** Example values used in "required: add `key: value`" messages. */
const REQUIRED_HINTS: Record<string, string> = {
  name: "'<name>'",
  id: "'<hook id>'",
  prompt: "'<prompt name>'",
  model: "'<model name>'",
  sideA: "{ prompt: '<prompt name>' }",
  sideB: "{ prompt: '<prompt name>' }",
  provider: "'openai'",
  description: "'<description>'",
  toolDescription: "'<what it does, for the model>'",
  content: "'<text>'",
  property: "'<VARIABLE_NAME>'",
  type: "'<type>'",
  hook: "'filter_messages'",
  receives_messages: "'side_a'",
  execute: "async (state, args) => { ... }",
  role: "'user'",
  status: "'success'",
  result: "'<result text>'",
  error: "'<error text>'",
};

const DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized)/;

function pathToString(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === "symbol" ? p.toString() : String(p))).join(".");
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let current: unknown = root;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return { found: false, value: undefined };
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { found: true, value: current };
}

function quoteList(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === "string" ? `'${v}'` : String(v))).join(", ");
}

function requiredMessage(path: readonly PropertyKey[]): string {
  const key = path[path.length - 1];
  if (typeof key !== "string") return "required: this value is missing";
  // At the root, `prompt` is a prompt definition's content; nested (sideA.prompt) it names a prompt.
  const hint = key === "prompt" && path.length === 1 ? "'<system prompt text>'" : REQUIRED_HINTS[key];
  return `required: add \`${key}: ${hint ?? "<value>"}\``;
}

function isMissing(issue: Issue, fullPath: readonly PropertyKey[], root: unknown, hasRoot: boolean): boolean {
  if ("input" in issue) return issue.input === undefined;
  if (hasRoot) {
    const at = valueAt(root, fullPath);
    return at.found && at.value === undefined;
  }
  return / received undefined$/.test(issue.message);
}

function got(issue: Issue, fullPath: readonly PropertyKey[], root: unknown, hasRoot: boolean): string {
  if ("input" in issue && issue.input !== undefined)
    return ` (got ${JSON.stringify(issue.input) ?? describeValueType(issue.input)})`;
  if (!hasRoot) return "";
  const at = valueAt(root, fullPath);
  if (!at.found || at.value === undefined) return "";
  const shown =
    typeof at.value === "object" && at.value !== null ? describeValueType(at.value) : JSON.stringify(at.value);
  return ` (got ${shown ?? describeValueType(at.value)})`;
}

function friendlyMessage(issue: Issue, fullPath: readonly PropertyKey[], root: unknown, hasRoot: boolean): string {
  const missing =
    (issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union") &&
    isMissing(issue, fullPath, root, hasRoot);
  if (missing) return issue.message.startsWith("required") ? issue.message : requiredMessage(fullPath);
  if (!DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type": {
      const received = /received (\w+)$/.exec(issue.message)?.[1];
      return (
        `must be ${issue.expected === "object" || issue.expected === "array" ? "an" : "a"} ${issue.expected}` +
        (received ? ` (got ${received})` : got(issue, fullPath, root, hasRoot))
      );
    }
    case "invalid_value":
      return (
        `must be ${issue.values.length === 1 ? quoteList(issue.values) : `one of ${quoteList(issue.values)}`}` +
        got(issue, fullPath, root, hasRoot)
      );
    case "invalid_union":
      if ("options" in issue && Array.isArray(issue.options)) {
        return `must be one of ${quoteList(issue.options)}` + got(issue, fullPath, root, hasRoot);
      }
      return `does not match any accepted form` + got(issue, fullPath, root, hasRoot);
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return min <= 1 ? "must not be empty" : `must be at least ${min} characters long`;
      if (issue.origin === "array" || issue.origin === "set")
        return `must have at least ${min} item${min === 1 ? "" : "s"}`;
      return issue.inclusive ? `must be at least ${min}` : `must be greater than ${min}`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `must be at most ${max} characters long`;
      if (issue.origin === "array" || issue.origin === "set") return `must have at most ${max} items`;
      return issue.inclusive ? `must be at most ${max}` : `must be less than ${max}`;
    }
    case "unrecognized_keys":
      return `unknown field${issue.keys.length === 1 ? "" : "s"} ${quoteList(issue.keys)}: remove ${issue.keys.length === 1 ? "it" : "them"} or check the spelling`;
    case "invalid_format":
      return `must be a valid ${issue.format}` + got(issue, fullPath, root, hasRoot);
    default:
      return issue.message;
  }
}

/** True when a union branch failed because the value has another type altogether (not a near miss). */
function branchIsTypeMismatch(branch: readonly Issue[]): boolean {
  return branch.some(
    (i) =>
      i.path.length === 0 && (i.code === "invalid_type" || i.code === "invalid_value" || i.code === "invalid_union"),
  );
}

function flatten(issue: Issue, prefix: readonly PropertyKey[], out: { issue: Issue; path: PropertyKey[] }[]): void {
  const fullPath = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const candidates = issue.errors.filter((branch) => branch.length > 0 && !branchIsTypeMismatch(branch));
    const best = candidates.sort((a, b) => a.length - b.length)[0];
    if (best) {
      for (const inner of best) flatten(inner, fullPath, out);
      return;
    }
  }
  out.push({ issue, path: fullPath });
}

/**
 * Turns zod issues into `{ path, message, code }` entries with dotted paths and friendly messages. For a union
 * (e.g. a binding given as string or object) the branch that matches the value's type is reported. Pass the
 * validated `input` to improve messages (missing vs wrong type, the offending value).
 */
export function formatZodIssues(issues: readonly Issue[], input?: unknown): FormattedIssue[] {
  const hasRoot = arguments.length > 1;
  const flat: { issue: Issue; path: PropertyKey[] }[] = [];
  for (const issue of issues) flatten(issue, [], flat);
  const seen = new Set<string>();
  const result: FormattedIssue[] = [];
  for (const { issue, path } of flat) {
    const formatted = {
      path: pathToString(path),
      message: friendlyMessage(issue, path, input, hasRoot),
      code: issue.code,
    };
    const key = `${formatted.path}\u0000${formatted.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(formatted);
  }
  return result;
}

/** One line per issue: `path: message` (or just the message for the root). */
export function issuesToText(issues: readonly FormattedIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("\n");
}
