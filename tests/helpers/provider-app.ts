import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "./test-app";

/** A test app on the fixture agents plus one provider's fixture folder, against a fresh scripted model server. */
export interface ProviderApp {
  fake: FakeLlm;
  t: TestApp;
  /** Post `content` to a new thread of `agent`, wait until it settles: the thread, its messages and request logs. */
  run(content: string): Promise<{ thread: any; messages: any[]; logs: any[] }>;
  close(): Promise<void>;
}

export async function startProviderApp(fixture: string, agent: string, env: (fakeUrl: string) => Record<string, string>): Promise<ProviderApp> {
  const fake = await startFakeLlm();
  const agentsDir = fs.mkdtempSync(path.join(os.tmpdir(), `${fixture}-`));
  fs.cpSync(fixtureAgents, agentsDir, { recursive: true });
  fs.cpSync(path.join(import.meta.dirname, "../fixtures", fixture), agentsDir, { recursive: true });
  const t = await startTestApp({ agentsSource: agentsDir, env: env(fake.url) });
  return {
    fake,
    t,
    async run(content) {
      const id = (await api(t.url, "POST", "/api/threads", { agent_id: agent })).body.threadId;
      expect((await api(t.url, "POST", `/api/threads/${id}/messages`, { content })).status).toBe(202);
      const thread = await waitForThread(t.url, id);
      const messages = (await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages;
      const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
      return { thread, messages, logs };
    },
    async close() {
      await t.close();
      await fake.close();
      fs.rmSync(agentsDir, { recursive: true, force: true });
    },
  };
}
