import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { migrateDatabase } from "@/server/db/migrate";
import { databaseTarget } from "@/server/db/database-url";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "@/server/db/test-postgres";
import { NodeProcess } from "../helpers/node-process";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp-receiver";
import { freePort } from "../helpers/server-process";
import { api, fixtureAgents, projectRoot, waitFor } from "../helpers/test-app";
import { expectLinkedTree, otlpEnv, runExported, scriptThreeLevelRun } from "../helpers/trace-tree";

/**
 * Traces across processes on PostgreSQL: an API-only app and two `npm run worker` processes, each exporting over OTLP.
 * Whichever worker runs a child thread, its activations are children of the parent's call, recorded by another.
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("OpenTelemetry traces with worker processes on PostgreSQL", () => {
  const dbName = uniqueDatabaseName("traces");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-traces-"));
  let fake: FakeLlm;
  let receiver: OtlpReceiver;
  let app: NodeProcess;
  let base = "";
  const workers: NodeProcess[] = [];

  beforeAll(async () => {
    const url = await createDatabase(adminUrl!, dbName);
    await migrateDatabase(databaseTarget(url), { projectRoot });
    fake = await startFakeLlm();
    receiver = await startOtlpReceiver();
    const agentsDir = path.join(tmp, "agents");
    fs.cpSync(fixtureAgents, agentsDir, { recursive: true });
    const env = {
      DATABASE_URL: url,
      DATA_DIR: path.join(tmp, "data"),
      AGENTS_DIR: agentsDir,
      WATCH_DEFINITIONS: "0",
      SECRETS_KEY: "33".repeat(32),
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: "k",
      ...otlpEnv(receiver.url),
    };
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = new NodeProcess("app", "scripts/api-server.ts", { ...env, PORT: String(port), RUNTIME_WORKERS: "0" });
    await app.start(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok === true);
    for (let i = 1; i <= 2; i++) workers.push(new NodeProcess(`worker ${i}`, "scripts/worker.ts", env));
    await Promise.all(workers.map((w) => w.start(() => w.output.includes("[worker]"))));
  }, 120_000);

  afterAll(async () => {
    for (const p of [...workers, app]) await p?.stop();
    await receiver?.close();
    await fake?.close();
    if (adminUrl) await dropDatabase(adminUrl, dbName);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("links each child's activations to the call that spawned it, whichever worker runs them", async () => {
    scriptThreeLevelRun(fake);
    const id = (await api(base, "POST", "/api/threads", { agent_id: "crash_boss" })).body.threadId as string;
    await api(base, "POST", `/api/threads/${id}/messages`, { content: "start" });
    await waitFor(async () => ((await api(base, "GET", `/api/threads/${id}/messages`)).body.messages as any[]).at(-1)?.content === "Everything is done.", 60_000);
    await waitFor(async () => runExported(receiver.spans), 15_000);

    const { bossFirst, midRuns, leafRun } = expectLinkedTree(receiver.spans, id);
    for (const s of [bossFirst, ...midRuns, leafRun]) expect(s.resource["studio.process.role"]).toBe("worker");
  }, 120_000);
});
