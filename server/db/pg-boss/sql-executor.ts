import type PgBoss from "pg-boss";
import type { Db } from "../client";

/**
 * pg-boss runs its statements through this shape. Over a Prisma client (or a Prisma transaction) a job is inserted,
 * cancelled or notified about in the same transaction as the rows that ask for it: an effect and its job commit
 * together or not at all.
 */
export function prismaSqlExecutor(db: Db): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      // pg-boss leaves unset options `undefined`; node-postgres sends those as NULL, Prisma needs them spelled out.
      const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values.map((v) => (v === undefined ? null : v)));
      return { rows };
    },
  };
}
