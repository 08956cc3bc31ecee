import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp-receiver";
import { ServerProcess } from "../helpers/server-process";
import { api, fixtureAgents, waitFor } from "../helpers/test-app";
import { expectLinkedTree, otlpEnv, runExported, scriptThreeLevelRun } from "../helpers/trace-tree";

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

describe("OpenTelemetry traces over OTLP", () => {
  it("exports a three-level run as one trace: activations, model calls and tool calls, each child under its parent's call", async () => {
    scriptThreeLevelRun(fake);
    server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ...otlpEnv(receiver.url) } });
    await server.start();
    const id = (await api(server.url, "POST", "/api/threads", { agent_id: "crash_boss" })).body.threadId as string;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "start" });
    await waitFor(async () => ((await api(server.url, "GET", `/api/threads/${id}/messages`)).body.messages as any[]).at(-1)?.content === "Everything is done.", 30_000);
    await waitFor(async () => runExported(receiver.spans), 15_000);

    const { bossFirst } = expectLinkedTree(receiver.spans, id);
    expect(bossFirst.resource).toMatchObject({ "service.name": "studio-under-test", "studio.process.role": "api" });
    expect(receiver.otherPaths, "no OTLP metrics or logs are sent unless asked for").toEqual([]);
    // Nothing a user wrote is put on a span.
    expect(JSON.stringify(receiver.spans)).not.toContain("Organise");
  }, 90_000);
});
