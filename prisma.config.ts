import { defineConfig } from "prisma/config";

// Read by `prisma generate` only. Migrations run through the WASM schema engine (scripts/migrate.ts).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "file:./data/app.db" },
});
