import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver";
import { ServerProcess } from "../helpers/server-process";
import { api, fixtureAgents, waitFor } from "../helpers/test-app";

let fake: FakeLlm;
let receiver: OtlpReceiver;
let server: ServerProcess;

beforeAll(async () => {
  fake = await startFakeLlm();
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await fake?.close();
});

const boss = "You are the crash boss.";
const manager = "You are the crash manager.";
const leaf = "You are the crash leaf.";

describe("OpenTelemetry traces over OTLP", () => {
  it("exports a three-level run as one trace: activations, model calls and tool calls, each child under its parent's call", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "crash_mid", arguments: { task: "Organise" } }] } },
      // The manager starts the background leaf, and works a little while it digs.
      { when: { system_contains: manager, last_contains: "Organise" }, times: 1, respond: { tool_calls: [{ name: "crash_leaf", arguments: { task: "Dig" } }, { name: "slow", arguments: { ms: 2500 } }] } },
      { when: { system_contains: leaf, last_contains: "Dig" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "dug" } }] } },
      { when: { system_contains: manager, last_contains: "has returned the following result" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed" } }] } },
      { when: { system_contains: boss, last_role: "tool" }, times: 1, respond: { content: "Everything is done." } },
    ]);
    server = new ServerProcess({
      agentsSource: fixtureAgents,
      env: {
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: "k",
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "studio-under-test",
        OTEL_BSP_SCHEDULE_DELAY: "100",
      },
    });
    await server.start();
    const id = (await api(server.url, "POST", "/api/threads", { agent_id: "crash_boss" })).body.threadId as string;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "start" });
    await waitFor(async () => ((await api(server.url, "GET", `/api/threads/${id}/messages`)).body.messages as any[]).at(-1)?.content === "Everything is done.", 30_000);

    const byName = (name: string) => receiver.spans.filter((s) => s.name === name);
    // The boss's last activation (answering after the manager reported) ends after its last model call.
    await waitFor(async () => byName("invoke_agent crash_boss").length >= 2 && byName("invoke_agent crash_leaf").length >= 1, 15_000);
    const one = (name: string): ReceivedSpan => {
      const found = byName(name);
      expect(found, name).toHaveLength(1);
      return found[0]!;
    };
    const [bossFirst] = byName("invoke_agent crash_boss").filter((s) => s.parentSpanId === "");
    expect(bossFirst, "the boss's first activation is a root span").toBeDefined();
    const callMid = one("execute_tool crash_mid");
    const midRuns = byName("invoke_agent crash_mid");
    const callLeaf = one("execute_tool crash_leaf");
    const leafRun = one("invoke_agent crash_leaf");

    // Boss → its call of crash_mid → the manager's activations → its call of crash_leaf → the leaf's activation.
    expect(callMid.parentSpanId).toBe(bossFirst!.spanId);
    expect(midRuns.length).toBeGreaterThanOrEqual(1);
    for (const run of midRuns) expect(run.parentSpanId).toBe(callMid.spanId);
    expect(midRuns.map((s) => s.spanId)).toContain(callLeaf.parentSpanId);
    expect(leafRun.parentSpanId).toBe(callLeaf.spanId);
    for (const s of [callMid, ...midRuns, callLeaf, leafRun]) expect(s.traceId).toBe(bossFirst!.traceId);

    // GenAI semantic conventions on each kind of span.
    expect(bossFirst!.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "crash_boss", "gen_ai.conversation.id": id });
    expect(leafRun.attributes["studio.thread.parent_id"]).toBe(midRuns[0]!.attributes["gen_ai.conversation.id"]);
    expect(callLeaf.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "crash_leaf", "gen_ai.tool.type": "function" });
    expect(typeof callLeaf.attributes["gen_ai.tool.call.id"]).toBe("string");
    const leafChat = receiver.spans.find((s) => s.name.startsWith("chat ") && s.parentSpanId === leafRun.spanId);
    expect(leafChat, "the leaf's model call is under its activation").toBeDefined();
    expect(leafChat!.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(leafChat!.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.response.finish_reasons": ["tool_calls"] });
    expect(leafChat!.attributes["gen_ai.request.model"]).toEqual(expect.any(String));
    expect(leafChat!.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
    const slow = one("execute_tool slow");
    expect(midRuns.map((s) => s.spanId)).toContain(slow.parentSpanId);

    expect(bossFirst!.resource).toMatchObject({ "service.name": "studio-under-test", "studio.process.role": "api" });
    expect(receiver.otherPaths, "no OTLP metrics or logs are sent unless asked for").toEqual([]);
  });
});
