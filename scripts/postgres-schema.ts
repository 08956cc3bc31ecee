/**
 * `npm run db:schema:postgres`: rewrite prisma/postgresql/schema.prisma from prisma/schema.prisma (the provider and
 * the client output differ, nothing else). Run it after every change to prisma/schema.prisma.
 */
import path from "node:path";
import { POSTGRES_SCHEMA, writePostgresSchema } from "../server/db/postgres-schema";

const projectRoot = path.resolve(import.meta.dirname, "..");
console.log(writePostgresSchema(projectRoot) ? `Wrote ${POSTGRES_SCHEMA}.` : `${POSTGRES_SCHEMA} is up to date.`);
