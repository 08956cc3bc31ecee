/**
 * Rule matching: the first rule whose `when` conditions all hold and whose `times` budget is not used up answers the
 * request. A script keeps a hit counter per rule; replacing the script resets the counters.
 */
import { messageText, systemText, toolNames, type ChatRequest } from "./chat-request";
import type { ParsedRule } from "./script-schema";

type When = ParsedRule["when"];

function asList(value: string | string[]): string[] {
  return typeof value === "string" ? [value] : value;
}

/** Whether every condition given in `when` holds for the request. */
export function conditionsHold(when: When, request: ChatRequest): boolean {
  const last = request.messages[request.messages.length - 1];
  if (when.model !== undefined && request.model !== when.model) return false;
  if (when.system_contains !== undefined && !systemText(request).includes(when.system_contains)) return false;
  if (when.last_role !== undefined && last?.role !== when.last_role) return false;
  if (when.last_contains !== undefined && !(last ? messageText(last) : "").includes(when.last_contains)) return false;
  if (when.any_contains !== undefined) {
    const needle = when.any_contains;
    if (!request.messages.some((m) => messageText(m).includes(needle))) return false;
  }
  const offered = toolNames(request);
  if (when.has_tool !== undefined && !asList(when.has_tool).every((name) => offered.includes(name))) return false;
  if (when.lacks_tool !== undefined && asList(when.lacks_tool).some((name) => offered.includes(name))) return false;
  return true;
}

export interface RuleMatch {
  index: number;
  rule: ParsedRule;
}

/** The current script and how often each rule has answered. */
export class Script {
  private rules: ParsedRule[] = [];
  private hits: number[] = [];

  constructor(rules: ParsedRule[] = []) {
    this.replace(rules);
  }

  replace(rules: ParsedRule[]): void {
    this.rules = rules;
    this.hits = rules.map(() => 0);
  }

  getRules(): ParsedRule[] {
    return this.rules;
  }

  getHits(): number[] {
    return [...this.hits];
  }

  /** Finds the answering rule and counts the hit; null when no rule matches. */
  match(request: ChatRequest): RuleMatch | null {
    for (const [index, rule] of this.rules.entries()) {
      const used = this.hits[index] ?? 0;
      if (rule.times !== undefined && used >= rule.times) continue;
      if (!conditionsHold(rule.when, request)) continue;
      this.hits[index] = used + 1;
      return { index, rule };
    }
    return null;
  }

  /** Model ids named in the rules' `when.model`. */
  modelIds(): string[] {
    return this.rules.flatMap((rule) => (rule.when.model ? [rule.when.model] : []));
  }
}
