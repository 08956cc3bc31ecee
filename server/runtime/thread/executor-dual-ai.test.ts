import { afterEach, describe, expect, it } from "vitest";
import { duoDefinitions } from "../testing/fixtures";
import { createTestRuntime, type TestRuntime } from "../testing/harness";

let t: TestRuntime;
afterEach(async () => t?.close());

async function duo(defs: ReturnType<typeof duoDefinitions>, script: Parameters<typeof createTestRuntime>[0]["script"]) {
  t = await createTestRuntime({ definitions: defs, script });
  return t.runtime.createThread({ agentId: "duo", initialMessages: [{ role: "user", content: "Write a haiku about rain" }] });
}

describe("dual_ai: sides alternate, each seeing itself as assistant and the other as user", () => {
  it("side A answers the initial message, then side B, each from its own perspective", async () => {
    const thread = await duo(duoDefinitions({ maxSessionTurns: 1 }), [
      { toolCalls: [{ name: "echo", args: { text: "draft" } }] },
      { content: "Rain on the roof" },
      { content: "Nice, but shorter" },
    ]);
    const done = await t.settle(thread.id);
    expect(done.stopReason).toBe("max_session_turns");
    expect(done.state.session).toMatchObject({ ended: true, reason: "max_session_turns", ok: false });

    const [a1, a2, b1] = t.llm.requests;
    expect(a1!.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(a1!.messages[0]).toMatchObject({ content: "You write drafts." });
    expect(a2!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    // Side B: the initial user message is its own (assistant), side A's text is the user, A's tool traffic is hidden.
    expect(b1!.messages[0]).toMatchObject({ content: "You review drafts." });
    expect(b1!.messages.slice(1)).toEqual([
      { role: "assistant", content: "Write a haiku about rain" },
      { role: "user", content: "Rain on the roof" },
    ]);
    const stored = await t.persistence.messages.list(thread.id, { includeSilent: true });
    expect(stored.map((m) => `${m.role}/${m.side ?? "-"}`)).toEqual(["user/-", "assistant/a", "tool/a", "assistant/a", "user/b"]);
  });

  it("a successful sessionStop call ends the session with its mapped payload (`session_stop`)", async () => {
    const thread = await duo(duoDefinitions(), [
      { content: "Rain taps the window" },
      { toolCalls: [{ name: "approve", args: { summary: "Approved haiku" } }] },
    ]);
    const done = await t.settle(thread.id);
    expect(done.stopReason).toBe("session_stop");
    expect(done.state.session).toMatchObject({ ended: true, ok: true, result: "Approved haiku" });
    expect(t.llm.requests).toHaveLength(2);
  });

  it("a terminal tool that errored does not end the session", async () => {
    const defs = duoDefinitions({ maxSessionTurns: 1 });
    defs.prompts![0]!.tools = ["echo", "give_up"];
    const thread = await duo(defs, [
      // give_up with an invalid argument type errors: the session goes on and side A keeps stepping.
      { toolCalls: [{ name: "give_up", args: { reason: 42 } }] },
      { content: "ok, here it is" },
      { content: "fine" },
    ]);
    const done = await t.settle(thread.id);
    expect(done.stopReason).toBe("max_session_turns");
    const tool = (await t.persistence.messages.list(thread.id, { includeSilent: true })).find((m) => m.role === "tool")!;
    expect(tool.toolStatus).toBe("error");
  });

  it("a successful sessionFail ends the session as a failure (`session_fail`)", async () => {
    const thread = await duo(duoDefinitions(), [{ toolCalls: [{ name: "give_up", args: { reason: "cannot rhyme" } }] }]);
    const done = await t.settle(thread.id);
    expect(done.stopReason).toBe("session_fail");
    expect(done.state.session).toMatchObject({ ended: true, ok: false, result: "cannot rhyme" });
  });

  it("maxSessionTurns ends the session when both sides completed that many turns", async () => {
    const thread = await duo(duoDefinitions({ maxSessionTurns: 2 }), [
      { content: "a1" },
      { content: "b1" },
      { content: "a2" },
      { content: "b2" },
    ]);
    const done = await t.settle(thread.id);
    expect(done.state.turnsCompleted).toEqual({ a: 2, b: 2 });
    expect(done.stopReason).toBe("max_session_turns");
    expect(t.llm.requests).toHaveLength(4);
  });

  it("a queued `assistant` message makes side B act; a queued `user` message makes side A act", async () => {
    const thread = await duo(duoDefinitions(), [{ toolCalls: [{ name: "give_up", args: { reason: "stop" } }] }]);
    await t.settle(thread.id);
    t.llm.push({ toolCalls: [{ name: "approve", args: { summary: "B acted" } }] });
    await t.runtime.postMessage(thread.id, { content: "from outside, as side A", role: "assistant" });
    const done = await t.settle(thread.id);
    expect(done.stopReason).toBe("session_stop");
    expect(t.llm.requests.at(-1)!.messages[0]).toMatchObject({ content: "You review drafts." });
  });
});
