import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSse } from "../helpers/sse";
import { api, fixtureAgents, startTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ agentsSource: fixtureAgents });
});
afterAll(async () => t?.close());

const phantom = "phantom message";

/** What the thread's SSE stream (replayed from the start) sends within `ms`. */
async function streamFor(id: string, ms: number): Promise<unknown[]> {
  let got: unknown[] = [];
  await readSse(`${t.url}/api/threads/${id}/stream`, { lastEventId: 0, timeoutMs: ms, until: (ev) => ((got = ev), false) }).catch(() => {});
  return got;
}

describe("a rolled-back write never reaches a client", () => {
  it("API responses and the SSE stream served while a transaction is open show only committed rows, before and after its rollback", async () => {
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat", initial_messages: [{ role: "user", content: "committed" }] });
    const id = body.threadId as string;
    const p = t.app.persistence;
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const rolledBack = p
      .transaction(async (tx) => {
        const m = await tx.messages.append(id, {
          role: "assistant", content: phantom, name: null, toolCalls: null, toolCallId: null, toolStatus: null, reasoningContent: null,
          attachments: null, silent: false, depth: 0, side: "a", metadata: null, subagentId: null,
        });
        await tx.events.append(id, { type: "message.created", message: { id: m.id, role: "assistant", content: phantom } });
        await tx.threads.update(id, { name: "phantom name" });
        entered();
        await new Promise<void>((r) => (release = r));
        throw new Error("roll back");
      })
      .catch((err: Error) => err.message);
    await inside;
    // Everything a client can read while the transaction is open.
    const seen: string[] = [];
    seen.push(JSON.stringify((await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body));
    seen.push(JSON.stringify((await api(t.url, "GET", `/api/threads/${id}`)).body));
    seen.push(JSON.stringify((await api(t.url, "GET", `/api/threads?limit=100`)).body));
    const during = streamFor(id, 800);
    await new Promise((r) => setTimeout(r, 300));
    release();
    expect(await rolledBack).toBe("roll back");
    seen.push(JSON.stringify(await during));
    // And after the rollback: the stream from the start, and the history.
    const replay = await streamFor(id, 500);
    expect(replay.length).toBeGreaterThan(0);
    seen.push(JSON.stringify(replay));
    const after = (await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages as any[];
    expect(after.map((m) => m.content)).toEqual(["committed"]);
    for (const text of seen) {
      expect(text).not.toContain(phantom);
      expect(text).not.toContain("phantom name");
    }
  });
});
