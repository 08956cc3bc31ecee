import { z } from "zod";
import { createUser, createUserBody, deleteUser, listUsers, updateUser, updateUserBody } from "../accounts/users";
import { listVariables, saveVariables, saveVariablesBody } from "../variables/env-values";
import { adminProcedure, router, toTrpcError } from "../trpc";

const byId = z.object({ id: z.string().min(1) });

/** Administrators only: users and instance variables. */
export const adminRouter = router({
  users: adminProcedure.query(({ ctx }) => listUsers(ctx.app.queries)),
  createUser: adminProcedure.input(createUserBody).mutation(({ ctx, input }) => createUser(ctx.app.queries, input).catch(toTrpcError)),
  updateUser: adminProcedure
    .input(byId.extend(updateUserBody.shape))
    .mutation(({ ctx, input: { id, ...patch } }) => updateUser(ctx.app.queries, id, patch, ctx.caller.userId).catch(toTrpcError)),
  deleteUser: adminProcedure.input(byId).mutation(async ({ ctx, input }) => {
    await deleteUser(ctx.app.queries, input.id, ctx.caller.userId).catch(toTrpcError);
    return { ok: true };
  }),
  instanceVariables: adminProcedure.query(({ ctx }) => listVariables(ctx.app, "instance", "instance")),
  saveInstanceVariables: adminProcedure.input(saveVariablesBody).mutation(({ ctx, input }) => saveVariables(ctx.app, "instance", "instance", input).catch(toTrpcError)),
});
