import { z } from "zod";
import { buildEditorView, DefinitionWriteError, draftId, saveDefinitions, scaffoldTool, scaffoldToolInput } from "@/server/registry/writer";
import type { DocObject } from "@/shared/editor/doc";
import { viewForCaller } from "@/shared/editor/editor-view";
import type { SaveChange } from "@/shared/editor/save-change";
import type { Caller } from "@/shared/caller";
import { isAdmin, ownerOf } from "../auth/access";
import { createThreadBody } from "../threads/schemas";
import { threadView } from "../threads/views";
import type { App } from "../app-context";
import { ApiError } from "../errors";
import { wakeLoop } from "../live/wake-loop";
import { adminProcedure, publicProcedure, router, TRPCError } from "../trpc";

const STATUS = { FORBIDDEN: 403, VALIDATION_ERROR: 400, BAD_REQUEST: 400, CONFLICT: 409, NOT_FOUND: 404 } as const;
const TRPC_CODE = { FORBIDDEN: "FORBIDDEN", VALIDATION_ERROR: "BAD_REQUEST", BAD_REQUEST: "BAD_REQUEST", CONFLICT: "CONFLICT", NOT_FOUND: "NOT_FOUND" } as const;

/** Writer errors keep their code and per-field details for the UI (`data.appCode`, `data.details`). */
function mapWriteError(error: unknown): never {
  if (error instanceof DefinitionWriteError) {
    throw new TRPCError({ code: TRPC_CODE[error.code], message: error.message, cause: new ApiError(STATUS[error.code], error.code, error.message, error.details) });
  }
  throw error;
}

/** Whether the caller may save: an administrator, and through an API key only with the admin scope. */
const mayWrite = (caller: Caller | null) => isAdmin(caller) && (caller?.via !== "api-key" || (caller.scopes?.includes("admin") ?? false));

function view(app: App, caller: Caller | null) {
  const built = buildEditorView(app.registry.current(), { readonly: app.config.DEFINITIONS_READONLY, agentsDir: app.config.agentsDir });
  return viewForCaller(built, mayWrite(caller));
}

const docObject = z.record(z.string(), z.json()) as unknown as z.ZodType<DocObject>;
const hash = z.string().nullable();
const change = z.discriminatedUnion("op", [
  z.object({ op: z.literal("write"), kind: z.enum(["agents", "prompts", "models"]), file: z.string().nullable(), hash, value: docObject }),
  z.object({ op: z.literal("delete"), file: z.string(), hash }),
  z.object({ op: z.literal("renameTool"), file: z.string(), hash, to: z.string() }),
]) as z.ZodType<SaveChange>;

/** The largest draft (its changes as JSON) a Try it thread takes: it is stored with the thread and its children. */
const MAX_DRAFT_CHARS = 256 * 1024;

const writeOptions = (app: App) => ({ dir: app.config.agentsDir, projectRoot: process.cwd(), readonly: app.config.DEFINITIONS_READONLY });

/** The visual graph editor: the definitions as documents, live updates, saving to files, scaffolding tools. */
export const editorRouter = router({
  /** Every definition file as an editor document, with the snapshot's diagnostics. */
  view: publicProcedure.query(({ ctx }) => view(ctx.app, ctx.caller)),
  /** Pushes a fresh view whenever the registry reloads (a save, or a file edited outside the editor). */
  changes: publicProcedure.subscription(async function* ({ ctx, signal }) {
    for await (const _ of wakeLoop((wake) => ctx.app.registry.subscribe(wake), signal)) yield view(ctx.app, ctx.caller);
  }),
  /** Writes the changed definitions (all or nothing), reloads the registry and returns the new view. */
  save: adminProcedure.input(z.object({ changes: z.array(change).min(1).max(1000) })).mutation(async ({ ctx, input }) => {
    const result = await saveDefinitions(input.changes, writeOptions(ctx.app)).catch(mapWriteError);
    await ctx.app.registry.reload();
    return { result, view: view(ctx.app, ctx.caller) };
  }),
  /** What Save would write, file by file (before and after), checked as Save checks it; writes nothing. */
  preview: adminProcedure.input(z.object({ changes: z.array(change).min(1).max(1000) })).mutation(async ({ ctx, input }) => {
    const result = await saveDefinitions(input.changes, { ...writeOptions(ctx.app), dryRun: true }).catch(mapWriteError);
    return { files: result.preview ?? [], unchanged: result.unchanged };
  }),
  /**
   * "Try it" on the unsaved draft: checks the draft as the registry would (a 400 names each file and field), then
   * starts a thread of `agent_id` that (with the children it spawns) runs the draft's definitions. Writes no file.
   */
  tryDraft: adminProcedure
    .input(createThreadBody.pick({ agent_id: true, env: true, env_types: true }).extend({ changes: z.array(change).min(1).max(1000) }))
    .mutation(async ({ ctx, input }) => {
      const size = JSON.stringify(input.changes).length;
      if (size > MAX_DRAFT_CHARS) {
        throw new TRPCError({ code: "BAD_REQUEST", message: `changes: the draft is ${Math.ceil(size / 1024)} KB; Try it takes drafts up to ${MAX_DRAFT_CHARS / 1024} KB: save it first` });
      }
      const build = ctx.app.runtime.deps.draftDefinitions;
      if (!build) throw new TRPCError({ code: "PRECONDITION_FAILED", message: "This server cannot run drafts: save the changes, then try the agent." });
      const draft = { id: draftId(input.changes), changes: input.changes };
      try {
        build(draft);
      } catch (error) {
        mapWriteError(error);
      }
      const t = await ctx.app.runtime.createThread({ userId: ownerOf(ctx.caller), agentId: input.agent_id, env: input.env, envTypes: input.env_types, draft });
      return threadView(t);
    }),
  /** Creates `tools/<name>.ts` with a description, argument fields and an `execute` to fill in. */
  scaffoldTool: adminProcedure.input(scaffoldToolInput).mutation(async ({ ctx, input }) => {
    const result = await scaffoldTool(input, writeOptions(ctx.app)).catch(mapWriteError);
    await ctx.app.registry.reload();
    return { ...result, view: view(ctx.app, ctx.caller) };
  }),
});
