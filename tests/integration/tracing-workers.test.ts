import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { testPostgresAdminUrl } from "@/server/db/test-postgres";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp-receiver";
import { api, waitFor } from "../helpers/test-app";
import { expectLinkedTree, otlpEnv, runExported, scriptThreeLevelRun } from "../helpers/trace-tree";

/**
 * Traces across processes on PostgreSQL: an API-only app and two `npm run worker` processes, each exporting over OTLP.
 * Whichever worker runs a child thread, its activations are children of the parent's call, recorded by another.
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("OpenTelemetry traces with worker processes on PostgreSQL", () => {
  let cluster: PgCluster;
  let fake: FakeLlm;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    fake = await startFakeLlm();
    receiver = await startOtlpReceiver();
    cluster = await startPgCluster(adminUrl!, { name: "traces", modelUrl: fake.url, workers: 2, env: otlpEnv(receiver.url) });
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
    await receiver?.close();
    await fake?.close();
  });

  it("links each child's activations to the call that spawned it, whichever worker runs them", async () => {
    scriptThreeLevelRun(fake);
    const { base } = cluster;
    const id = (await api(base, "POST", "/api/threads", { agent_id: "crash_boss" })).body.threadId as string;
    await api(base, "POST", `/api/threads/${id}/messages`, { content: "start" });
    await waitFor(async () => ((await api(base, "GET", `/api/threads/${id}/messages`)).body.messages as any[]).at(-1)?.content === "Everything is done.", 60_000);
    await waitFor(async () => runExported(receiver.spans), 15_000);

    const { bossFirst, midRuns, leafRun } = expectLinkedTree(receiver.spans, id);
    for (const s of [bossFirst, ...midRuns, leafRun]) expect(s.resource["studio.process.role"]).toBe("worker");
  }, 120_000);
});
