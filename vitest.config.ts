import path from "node:path";
import os from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const root = import.meta.dirname;
/**
 * Test files that take tens of seconds (they SIGKILL and restart app processes, publish to a registry, wait for
 * leases): they start first, so the pool's workers finish together instead of one worker running a long file alone
 * at the end. Vitest's own order (failed, then slowest by its cache, else largest first) applies within each group;
 * a clean clone has no cache, which is what CI runs on.
 */
const SLOW = [
  /tests\/integration\/crash-/,
  /tests\/integration\/packaging-publish\./,
  /tests\/integration\/thread-state-effects\./,
  /tests\/integration\/pg-/,
  /tests\/integration\/multi-process-/,
  /tests\/integration\/tracing/,
  /tests\/integration\/stop-continue\./,
  /tests\/integration\/file-storage\./,
  /tests\/integration\/tool-approval-restart\./,
  /tests\/integration\/step-fence\./,
  /tests\/integration\/login-rate-limits\./,
  /scripts\/migrate\.test\./,
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (f: TestSpecification) => SLOW.some((re) => re.test(f.moduleId));
    return [...sorted.filter(slow), ...sorted.filter((f) => !slow(f))];
  }
}

export default defineConfig({
  resolve: {
    alias: [
      { find: "@studio/spec", replacement: path.join(root, "server/spec/index.ts") },
      { find: /^@\//, replacement: `${root}/` },
    ],
  },
  test: {
    include: ["server/**/*.test.ts", "scripts/**/*.test.ts", "tests/**/*.test.ts", "agents/**/*.test.ts", "components/**/*.test.ts", "shared/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most integration files wait on child processes, sockets and timers more than they compute, so a 2-core machine
    // runs three workers rather than Vitest's default (cores − 1 = one).
    maxWorkers: Math.max(3, os.availableParallelism() - 1),
    // A worker keeps its loaded modules from one file to the next instead of importing the app's whole graph again for
    // each of ~200 files (import time 484 s → 42 s over the suite, wall time 708 → 385 s on 2 cores). Test files
    // therefore must not leave process-wide state behind: each builds its own app, database and servers and closes
    // them; process.env changes are restored.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
    // PostgreSQL runs (TEST_DATABASE_URL=postgresql://…): one migrated template database per run.
    globalSetup: ["tests/helpers/postgres-template.ts"],
    typecheck: { enabled: true, include: ["**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
