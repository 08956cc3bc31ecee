import { z } from "zod";
import { describe, expectTypeOf, it } from "vitest";
import { defineEffect } from "./effect";
import type { ThreadState } from "./thread-state";
import { defineTool } from "./tool";

describe("defineTool", () => {
  it("infers execute's args from the zod schema (parsed output, defaults applied)", () => {
    defineTool({
      description: "Count words.",
      args: z.object({ text: z.string(), limit: z.number().default(10), mode: z.enum(["a", "b"]).optional() }),
      execute: (state, args) => {
        expectTypeOf(state).toEqualTypeOf<ThreadState>();
        expectTypeOf(args).toEqualTypeOf<{ text: string; limit: number; mode?: "a" | "b" | undefined }>();
        return String(args.text.length);
      },
    });
  });

  it("limits the state to the members `uses` lists (and the identity)", () => {
    defineTool({
      description: "Read a file.",
      uses: ["readFile", "env"],
      execute: async (state) => {
        expectTypeOf(state.readFile).toEqualTypeOf<ThreadState["readFile"]>();
        expectTypeOf(state.threadId).toEqualTypeOf<string>();
        // @ts-expect-error writeFile is not in `uses`
        void state.writeFile;
        return "";
      },
    });
  });

  it("rejects a `uses` entry that is not a ThreadState member", () => {
    defineTool({
      description: "x",
      // @ts-expect-error not a member
      uses: ["readFiles"],
      execute: () => "",
    });
  });

  it("gives an empty argument object without a schema", () => {
    defineTool({
      description: "Current time.",
      execute: async (_state, args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
        return new Date(0).toISOString();
      },
    });
  });

  it("rejects using an argument the schema does not declare", () => {
    defineTool({
      description: "x",
      args: z.object({ text: z.string() }),
      // @ts-expect-error `count` is not in the args schema
      execute: (_state, args) => args.count,
    });
  });

  it("rejects a non-object args schema", () => {
    // @ts-expect-error args must be z.object(...)
    defineTool({ description: "x", args: z.string(), execute: () => "" });
  });
});

describe("defineEffect", () => {
  it("keeps the literal name and infers args", () => {
    const effect = defineEffect({
      name: "send_reminder",
      args: z.object({ text: z.string() }),
      execute: (_state, args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string }>();
      },
    });
    expectTypeOf(effect.name).toEqualTypeOf<"send_reminder">();
  });
});
