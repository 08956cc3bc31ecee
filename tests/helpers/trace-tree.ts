import { expect } from "vitest";
import type { FakeLlm } from "../../scripts/fake-llm/server";
import type { ReceivedSpan } from "./otlp-receiver";

const boss = "You are the crash boss.";
const manager = "You are the crash manager.";
const leaf = "You are the crash leaf.";

/**
 * A three-level run of the fixture tree: `crash_boss` calls the blocking `crash_mid`, which starts the background
 * `crash_leaf` and works a little (`slow`) while it digs; the leaf finishes, the manager finishes, the boss answers
 * "Everything is done.".
 */
export function scriptThreeLevelRun(fake: FakeLlm): void {
  fake.setScript([
    { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "crash_mid", arguments: { task: "Organise" } }] } },
    { when: { system_contains: manager, last_contains: "Organise" }, times: 1, respond: { tool_calls: [{ name: "crash_leaf", arguments: { task: "Dig" } }, { name: "slow", arguments: { ms: 2500 } }] } },
    { when: { system_contains: leaf, last_contains: "Dig" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "dug" } }] } },
    { when: { system_contains: manager, last_contains: "has returned the following result" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed" } }] } },
    { when: { system_contains: boss, last_role: "tool" }, times: 1, respond: { content: "Everything is done." } },
  ]);
}

/** Whether the spans of the whole run have arrived (the boss's second activation ends last). */
export const runExported = (spans: ReceivedSpan[]) =>
  spans.filter((s) => s.name === "invoke_agent crash_boss").length >= 2 && spans.some((s) => s.name === "invoke_agent crash_leaf");

/**
 * The run's spans form one trace: boss activation → its `execute_tool crash_mid` → the manager's activations → its
 * `execute_tool crash_leaf` → the leaf's activation, with model calls under their activations. Returns the spans.
 */
export function expectLinkedTree(spans: ReceivedSpan[], bossThreadId: string) {
  const byName = (name: string) => spans.filter((s) => s.name === name);
  const one = (name: string): ReceivedSpan => {
    const found = byName(name);
    expect(found, name).toHaveLength(1);
    return found[0]!;
  };
  const bossFirst = byName("invoke_agent crash_boss").find((s) => s.parentSpanId === "");
  expect(bossFirst, "the boss's first activation is a root span").toBeDefined();
  const callMid = one("execute_tool crash_mid");
  const midRuns = byName("invoke_agent crash_mid");
  const callLeaf = one("execute_tool crash_leaf");
  const leafRun = one("invoke_agent crash_leaf");

  expect(callMid.parentSpanId).toBe(bossFirst!.spanId);
  expect(midRuns.length).toBeGreaterThanOrEqual(1);
  for (const run of midRuns) expect(run.parentSpanId).toBe(callMid.spanId);
  expect(midRuns.map((s) => s.spanId)).toContain(callLeaf.parentSpanId);
  expect(leafRun.parentSpanId).toBe(callLeaf.spanId);
  for (const s of [callMid, ...midRuns, callLeaf, leafRun]) expect(s.traceId).toBe(bossFirst!.traceId);

  expect(bossFirst!.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "crash_boss", "gen_ai.conversation.id": bossThreadId });
  expect(leafRun.attributes["studio.thread.parent_id"]).toBe(midRuns[0]!.attributes["gen_ai.conversation.id"]);
  expect(callLeaf.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "crash_leaf", "gen_ai.tool.type": "function" });
  expect(typeof callLeaf.attributes["gen_ai.tool.call.id"]).toBe("string");
  const leafChat = spans.find((s) => s.name.startsWith("chat ") && s.parentSpanId === leafRun.spanId);
  expect(leafChat, "the leaf's model call is under its activation").toBeDefined();
  expect(leafChat!.kind).toBe(3); // SPAN_KIND_CLIENT
  expect(leafChat!.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.response.finish_reasons": ["tool_calls"] });
  expect(leafChat!.attributes["gen_ai.request.model"]).toEqual(expect.any(String));
  expect(leafChat!.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
  const slow = one("execute_tool slow");
  expect(midRuns.map((s) => s.spanId)).toContain(slow.parentSpanId);
  return { bossFirst: bossFirst!, callMid, midRuns, callLeaf, leafRun };
}

/** The OTLP variables a process under test exports its traces with (JSON, flushed every 100 ms). */
export const otlpEnv = (receiverUrl: string): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_SERVICE_NAME: "studio-under-test",
  OTEL_BSP_SCHEDULE_DELAY: "100",
});
