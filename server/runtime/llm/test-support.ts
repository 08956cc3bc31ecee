/** Helpers shared by the client's tests against the scripted OpenAI-compatible server (not used by production code). */
import type { FakeLlm } from "@/scripts/fake-llm/server";
import type { LlmAttempt, LlmCallOptions, ResolvedModel } from "./types";

export function modelOn(fake: FakeLlm, name: string, model: string, extra: Partial<ResolvedModel> = {}): ResolvedModel {
  return { name, provider: "openai", model, baseURL: fake.url, apiKey: "sk-test", ...extra };
}

/** A `sleep` that returns at once and records every requested delay. */
export function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms) => {
      delays.push(ms);
    },
  };
}

export interface Recorder {
  deltas: { content?: string; reasoning?: string; attempt: number }[];
  attempts: LlmAttempt[];
  opts: LlmCallOptions;
  /** Text of the content deltas of one attempt. */
  textOf(attempt: number): string;
}

export function recorder(extra: LlmCallOptions = {}): Recorder {
  const deltas: Recorder["deltas"] = [];
  const attempts: LlmAttempt[] = [];
  return {
    deltas,
    attempts,
    opts: {
      ...extra,
      onDelta: (d) => {
        deltas.push(d);
        extra.onDelta?.(d);
      },
      onAttempt: async (a) => {
        attempts.push(a);
        await extra.onAttempt?.(a);
      },
    },
    textOf: (attempt) =>
      deltas
        .filter((d) => d.attempt === attempt)
        .map((d) => d.content ?? "")
        .join(""),
  };
}

export const userSays = (content: string) => [{ role: "user" as const, content }];
