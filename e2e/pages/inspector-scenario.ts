import { expect, type APIRequestContext } from "@playwright/test";
import { setScript } from "../../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "../env";

export const BRIEF = "Brief: a note about the new office.";
export const DRAFT = "Draft: We are moving to a bright new office on Main Street.";
export const CUSTOM_STATUS = "Round 1: checking the facts";
export const VERDICT = "Verdict: true, the office opens on Monday.";

/**
 * The lead starts a resumable background writer (`draft_and_review`, instance "Office note") and a blocking one-shot
 * `fact_check` ("Opening day") in one step. The writer's Reviewer reports a custom status, waits, then approves; the
 * Checker answers after a delay and the Auditor approves the verdict.
 */
export async function scriptLeadScenario(opts: { reviewerDelayMs?: number; checkerDelayMs?: number } = {}) {
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { system_contains: "You are the inspection lead", last_contains: "Start the work" },
      times: 1,
      respond: {
        tool_calls: [
          { name: "subagent_create", arguments: { agent: "draft_and_review", message: BRIEF, attachments: [], name: "Office note" } },
          { name: "fact_check", arguments: { claim: "The office opens on Monday.", topic: "Opening day" } },
        ],
      },
    },
    { when: { system_contains: "You are the inspection lead" }, respond: { content: "Noted." } },
    { when: { system_contains: "You are the Writer" }, delay_ms: 200, respond: { content: DRAFT } },
    {
      when: { system_contains: "You are the Reviewer", last_role: "tool" },
      delay_ms: opts.reviewerDelayMs ?? 2500,
      respond: { tool_calls: [{ name: "approve_draft", arguments: { draft: DRAFT } }] },
    },
    {
      when: { system_contains: "You are the Reviewer" },
      times: 1,
      respond: { tool_calls: [{ name: "update_status", arguments: { status: CUSTOM_STATUS } }] },
    },
    { when: { system_contains: "You are the Reviewer" }, respond: { tool_calls: [{ name: "approve_draft", arguments: { draft: DRAFT } }] } },
    {
      when: { system_contains: "You are the Checker" },
      delay_ms: opts.checkerDelayMs ?? 1500,
      respond: { content: "The claim holds: the office opens on Monday." },
    },
    { when: { system_contains: "You are the Auditor" }, respond: { tool_calls: [{ name: "approve_verdict", arguments: { verdict: VERDICT } }] } },
  ]);
}

/** Post a message to a thread over the REST API (as the user). */
export async function post(request: APIRequestContext, threadId: string, content: string) {
  const res = await request.post(`/api/threads/${threadId}/messages`, { data: { content } });
  expect(res.status(), await res.text()).toBe(202);
}

export interface RegistryEntry {
  reference: string;
  name: string;
  threadName?: string;
  status: string;
}

export async function registry(request: APIRequestContext, threadId: string): Promise<RegistryEntry[]> {
  const res = await request.get(`/api/threads/${threadId}/subagents`);
  return ((await res.json()) as { subagents: RegistryEntry[] }).subagents;
}

/** Wait until the thread's registry holds an entry for `agent`, and return it. */
export async function childOf(request: APIRequestContext, threadId: string, agent: string): Promise<RegistryEntry> {
  let found: RegistryEntry | undefined;
  await expect
    .poll(async () => (found = (await registry(request, threadId)).find((e) => e.name === agent)), { timeout: 15_000 })
    .toBeTruthy();
  return found!;
}
