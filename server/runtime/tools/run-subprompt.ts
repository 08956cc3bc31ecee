import type { ToolResult } from "@/server/spec";
import type { ResolvedToolEntry } from "../definitions";
import type { ChatMessage, ChatTool } from "../llm/types";
import { resolveEnvValue } from "../env/env-resolver";
import { requestAnnouncer, resolveModels } from "../side-loop/llm-step";
import { attemptLogger, closingPendingLogs, pendingLogger } from "../side-loop/request-log";
import { promptEnvWithIncludes } from "../kernel/step-context";
import { renderSystemPrompt } from "../side-loop/system-prompt";
import { perspectiveMessages } from "../side-loop/perspective";
import { isAbortError } from "../abort";
import { chatToolFor } from "../kernel/tool-schemas";
import { parseArguments, resultText, toolError, type ToolCallContext } from "../kernel/tool-call-context";
import { runCallable } from "./run-callable";
import { subpromptUserMessage } from "./subprompt-input";
import { recordLlmAttempt } from "../tracing";

const MAX_DEPTH = 4;

/**
 * A subprompt: one LLM step of another prompt, exposed as a tool. Its context is the parent history when the prompt
 * sets `includeChat`, and the mapped user message (`initUserMessageProperty`, `initAttachmentsProperty`). Its own tool
 * calls run once and are serialised into the result with `includeToolCalls`; errors with `includeErrors`; its text
 * with `includeTextResponse` (each defaults to true).
 */
export async function runSubprompt(tc: ToolCallContext, entry: Extract<ResolvedToolEntry, { kind: "subprompt" }>, args: Record<string, unknown>): Promise<ToolResult> {
  const { deps, ctx } = tc;
  const prompt = ctx.defs.prompt(entry.name);
  if (!prompt) return toolError(`Subprompt ${entry.name} is not defined.`);
  if (tc.depth >= MAX_DEPTH) return toolError(`Subprompt ${entry.name} was not run: subprompts are nested too deeply.`);
  const includeText = entry.config.includeTextResponse;
  const includeCalls = entry.config.includeToolCalls;
  const includeErrors = entry.config.includeErrors;
  if (prompt.requiredSchema) {
    const r = (prompt.requiredSchema as { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }).safeParse(args);
    if (!r.success) {
      const issues = (r.error?.issues ?? []).map((i) => `${i.path.map(String).join(".") || "(arguments)"}: ${i.message}`).join("; ");
      return toolError(`Invalid arguments for ${entry.name}: ${issues}`, { error_code: "invalid_arguments" });
    }
  }

  const subEnv = { ...ctx.env, prompt: { env: promptEnvWithIncludes(ctx.defs, prompt.name) } };
  const system = await renderSystemPrompt(ctx.defs, prompt.name, async (n) => resolveEnvValue(n, subEnv, deps.secrets));
  const messages: ChatMessage[] = [{ role: "system", content: system }];
  if (prompt.includeChat) {
    const history = await deps.persistence.messages.list(tc.thread.id, { includeSilent: true });
    const prior = history.filter((m) => m.seq < tc.assistantMessage.seq);
    messages.push(
      ...(await perspectiveMessages(prior, {
        side: tc.side,
        includeChat: true,
        includePastTools: prompt.includePastTools,
        lastTurnEndSeq: 0,
        turnStartSeq: prompt.includePastTools ? 0 : Number.MAX_SAFE_INTEGER,
        recentImageThreshold: prompt.recentImageThreshold,
        loadImage: async (path, mime) => {
          const data = await deps.persistence.files.read(tc.thread.id, path);
          return data ? `data:${mime ?? "image/png"};base64,${Buffer.from(data).toString("base64")}` : null;
        },
      })),
    );
  }
  const msgProp = entry.config.initUserMessageProperty;
  const attProp = entry.config.initAttachmentsProperty;
  const mapped = attProp ? Object.fromEntries(Object.entries(args).filter(([k]) => k !== attProp)) : args;
  const userText = msgProp ? stringValue(args[msgProp]) : Object.keys(mapped).length > 0 ? JSON.stringify(mapped) : "";
  const paths = attProp ? pathList(args[attProp]) : [];
  const input = await subpromptUserMessage(deps.persistence.files, tc.thread.id, userText, paths, { recentImageThreshold: prompt.recentImageThreshold });
  if (!input.ok) return toolError(`Subprompt ${entry.name} was not run: ${input.error}`, { error_code: "invalid_attachment" });
  if (input.message) messages.push(input.message);

  const tools: ChatTool[] = [];
  const entries = ctx.defs.promptTools(prompt.name).filter((e) => e.kind === "tool" || e.kind === "subprompt");
  for (const e of entries) {
    const t = chatToolFor(ctx.defs, e);
    if (t) tools.push(t);
  }
  let result;
  try {
    const models = await resolveModels(deps, ctx, prompt.model);
    const logAttempt = attemptLogger(deps, ctx, tc.thread.id, tc.stepId, null);
    result = await closingPendingLogs(deps, tc.thread.id, () =>
      deps.llm.complete(
        {
          models,
          messages,
          tools: tools.length > 0 ? tools : undefined,
          toolChoice: tools.length > 0 ? prompt.toolChoice : undefined,
          parallelToolCalls: tools.length > 0 ? prompt.parallelToolCalls : undefined,
          reasoning: prompt.reasoning,
          providerOptions: prompt.providerOptions,
        },
        {
          signal: tc.signal,
          beforeSend: pendingLogger(deps, ctx, tc.thread.id, null),
          onAttemptStart: requestAnnouncer(deps, tc.thread.id, tc.stepId, null, messages.length, tools.length),
          onAttempt: (a) => {
            recordLlmAttempt(tc.thread.id, a, tc.run?.toolCallId ?? undefined);
            return logAttempt(a);
          },
        },
      ),
    );
  } catch (err) {
    if (isAbortError(err)) throw err;
    const message = err instanceof Error ? err.message : String(err);
    return toolError(includeErrors ? `Subprompt ${entry.name} failed: ${message}` : `Subprompt ${entry.name} failed.`);
  }

  const sections: string[] = [];
  let failed = false;
  if (includeText && result.content) sections.push(result.content);
  for (const call of result.toolCalls) {
    const e = entries.find((x) => x.name === call.name);
    let outcome: ToolResult;
    const parsed = parseArguments(call.name, call.arguments);
    if (!e) outcome = toolError(`Tool ${call.name} is not available to ${entry.name}.`);
    else if (!parsed.ok) outcome = toolError(parsed.error);
    else if (e.kind === "subprompt") outcome = await runSubprompt({ ...tc, depth: tc.depth + 1 }, e, parsed.args);
    else if (e.kind === "tool") outcome = await runCallable(tc, e, parsed.args);
    else outcome = toolError(`Tool ${call.name} cannot be used inside a subprompt.`);
    if (outcome.status === "error") failed = true;
    if (includeCalls && (outcome.status === "success" || includeErrors)) {
      sections.push(`Tool call ${call.name}(${call.arguments}) → ${outcome.status === "success" ? "" : "error: "}${resultText(outcome)}`);
    }
  }
  const text = sections.join("\n\n");
  if (failed && !result.content && includeErrors) return toolError(text || `Subprompt ${entry.name} failed.`);
  return { status: "success", result: text };
}

function stringValue(v: unknown): string {
  if (v === undefined || v === null) return "";
  return typeof v === "string" ? v : JSON.stringify(v);
}

function pathList(v: unknown): string[] {
  if (typeof v === "string" && v) return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.length > 0) : [];
}
