import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

export default defineConfig({
  resolve: {
    alias: [
      { find: "@studio/spec", replacement: path.join(root, "server/spec/index.ts") },
      { find: /^@\//, replacement: `${root}/` },
    ],
  },
  test: {
    include: ["server/**/*.test.ts", "scripts/**/*.test.ts", "tests/**/*.test.ts", "agents/**/*.test.ts", "components/**/*.test.ts", "shared/**/*.test.ts", "bench/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // PostgreSQL runs (TEST_DATABASE_URL=postgresql://…): one migrated template database per run.
    globalSetup: ["tests/helpers/postgres-template.ts"],
    typecheck: { enabled: true, include: ["**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
