import type { Definitions } from "../definitions";
import type { SecretBox } from "../env/secret-box";
import type { EventPublisher } from "../events/publisher";
import type { LlmClient } from "../llm/types";
import type { Persistence } from "../ports";
import type { AbortRegistry } from "./abort-registry";
import type { RuntimeCapabilities } from "./capabilities";

export interface RuntimeSettings {
  /** Global ceiling of LLM steps per activation (design.md §4: 250). */
  maxTotalSteps: number;
  /** Default OpenAI-compatible endpoint and key for models without their own. */
  defaultBaseURL?: string;
  defaultApiKey?: string;
  /** Reads a process-level variable a model's `apiKeyEnv` names (the composition root passes a lookup). */
  processEnv?: (name: string) => string | undefined;
}

/** Everything the engine needs, passed in by the composition root (the runtime never reads process.env). */
export interface RuntimeDeps {
  persistence: Persistence;
  events: EventPublisher;
  llm: LlmClient;
  definitions(): Definitions;
  secrets: SecretBox | null;
  settings: RuntimeSettings;
  aborts: AbortRegistry;
  /** Operations of the upper layers that the kernel and `ThreadState` call (see capabilities.ts). */
  capabilities: RuntimeCapabilities;
  /** Ask for an activation of the thread (durable: a work item). */
  schedule(threadId: string): Promise<void>;
  /** Wake the scheduler: new work (an effect) may be due sooner than it would look. */
  wake(): void;
  log(level: "debug" | "info" | "warn" | "error", message: string, data?: Record<string, unknown>): void;
}
