import type { RegistrySnapshot } from "@/server/registry";
import { definitionsFromSnapshot } from "../definitions-from-registry";
import { createSecretBox } from "../env/secret-box";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { InMemoryEventBus } from "../events/memory-bus";
import type { ThreadRecord } from "../ports";
import { Runtime } from "../runtime";
import { MemoryPersistence } from "./memory-persistence";
import { ScriptedLlm, type ScriptStep } from "./scripted-llm";
import { snapshotFromObjects, type DefinitionObjects } from "./snapshot-from-objects";

export interface TestRuntime {
  runtime: Runtime;
  persistence: MemoryPersistence;
  llm: ScriptedLlm;
  events: ThreadEventEnvelope[];
  snapshot: RegistrySnapshot;
  /** Wait until the thread has no activation running and no work pending. */
  settle(threadId: string, timeoutMs?: number): Promise<ThreadRecord>;
  close(): Promise<void>;
}

/** A runtime on in-memory ports and a strict scripted LLM, with definitions validated by the real registry. */
export async function createTestRuntime(opts: { definitions: DefinitionObjects; script?: ScriptStep[]; maxTotalSteps?: number }): Promise<TestRuntime> {
  const persistence = new MemoryPersistence();
  const bus = new InMemoryEventBus();
  const events: ThreadEventEnvelope[] = [];
  bus.subscribeAll((e) => events.push(e));
  const llm = new ScriptedLlm(opts.script ?? []);
  const snapshot = snapshotFromObjects(opts.definitions);
  const defs = definitionsFromSnapshot(snapshot);
  const runtime = new Runtime({
    persistence,
    bus,
    llm,
    definitions: () => defs,
    secrets: createSecretBox(new Uint8Array(32).fill(7)),
    settings: { maxTotalSteps: opts.maxTotalSteps ?? 250, defaultBaseURL: "http://127.0.0.1:9/v1", defaultApiKey: "test" },
    workerId: "test-worker",
    runWorkers: true,
    log: () => {},
  });
  await runtime.start();
  return {
    runtime,
    persistence,
    llm,
    events,
    snapshot,
    async settle(threadId, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const t = await persistence.threads.get(threadId);
        const pendingWork = (await persistence.work.nextRunAt()) !== null;
        if (t && t.status !== "running" && !runtime.deps.aborts.isRunning(threadId) && !pendingWork) return t;
        if (Date.now() > deadline) throw new Error(`thread ${threadId} did not settle (status ${t?.status})`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close: () => runtime.close(),
  };
}
