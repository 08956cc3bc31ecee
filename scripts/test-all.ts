/**
 * `npm test`: every check the project has, in order — lint, the architecture check (.dependency-cruiser.cjs), type
 * check, unit + integration tests (Vitest), the integration tests again on PostgreSQL, browser tests (Playwright in
 * Chromium) — then one summary line. Stops at the first failing stage.
 * - The PostgreSQL pass runs when PostgreSQL is reachable (TEST_DATABASE_URL, else postgresql://127.0.0.1:5432/postgres)
 *   and says why it skipped otherwise; with CI set (or REQUIRE_POSTGRES=1) an unreachable PostgreSQL fails the run.
 * - `--skip-e2e` leaves out the browser tests, `--skip-postgres` the PostgreSQL pass (quick local runs).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { needsBuild } from "./build-if-needed";
import { postgresForTests } from "./postgres-for-tests";

const root = process.cwd();
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
// Not test-results/: Playwright empties that folder when it starts.
const results = path.join(root, ".tmp/test-reports");
fs.mkdirSync(results, { recursive: true });
const skipE2e = process.argv.includes("--skip-e2e");
const skipPostgres = process.argv.includes("--skip-postgres");
/** The tests that use a database: they run a second time on PostgreSQL. */
const POSTGRES_PASS = ["tests/integration", "server/db", "server/api"];
/**
 * Left out of the PostgreSQL pass: tests of protocol adapters and wire formats (model providers' SDKs, MCP, OpenID
 * Connect, the npm registry, request shaping, console redaction), whose use of the database is incidental. They run
 * once, on SQLite; what they store goes through the same stores the rest of the pass covers on PostgreSQL.
 */
const POSTGRES_SKIP = [
  "tests/integration/*-provider.test.ts",
  "tests/integration/mcp-*.test.ts",
  "tests/integration/oidc-sign-in.test.ts",
  "tests/integration/packaging-publish.test.ts",
  "tests/integration/password-username-rules.test.ts",
  "tests/integration/console-redaction.test.ts",
  "tests/integration/request-shaping.test.ts",
  // Log lines and the OTLP export; traces across worker processes have their own PostgreSQL test (tracing-workers).
  "tests/integration/structured-logs.test.ts",
  "tests/integration/tracing.test.ts",
];

function run(label: string, cmd: string, args: string[], env: Record<string, string> = {}): void {
  console.log(`\n=== ${label}: ${path.basename(cmd)} ${args.join(" ")}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } });
  console.log(`=== ${label}: ${r.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (r.status !== 0) {
    summary();
    process.exit(r.status ?? 1);
  }
}

function count(file: string, kind: "vitest" | "playwright"): { passed: number; failed: number; skipped: number } {
  if (!fs.existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
  const json = JSON.parse(fs.readFileSync(file, "utf8"));
  if (kind === "vitest") {
    return { passed: json.numPassedTests ?? 0, failed: json.numFailedTests ?? 0, skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0) };
  }
  const s = json.stats ?? {};
  return { passed: s.expected ?? 0, failed: (s.unexpected ?? 0) + (s.flaky ?? 0), skipped: s.skipped ?? 0 };
}

let postgresNote = "";
function summary(): void {
  const v = count(path.join(results, "vitest.json"), "vitest");
  const g = count(path.join(results, "vitest-postgres.json"), "vitest");
  const p = count(path.join(results, "e2e.json"), "playwright");
  console.log(
    `\nunit+integration: ${v.passed} passed, ${v.failed} failed; on PostgreSQL: ${postgresNote || `${g.passed} passed, ${g.failed} failed`}; ` +
      `browser: ${p.passed} passed, ${p.failed} failed`,
  );
  console.log(`${v.passed + g.passed + p.passed} passed, ${v.failed + g.failed + p.failed} failed, ${v.skipped + g.skipped + p.skipped} skipped`);
}

for (const f of ["vitest.json", "vitest-postgres.json", "e2e.json"]) fs.rmSync(path.join(results, f), { force: true });
run("lint", bin("eslint"), ["."]);
run("architecture", bin("depcruise"), ["--config", ".dependency-cruiser.cjs", "--output-type", "err-long", "server/runtime"]);
run("typecheck", bin("tsc"), ["--noEmit"]);
// The first pass is the embedded default, whatever TEST_DATABASE_URL says.
run("unit + integration", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${path.join(results, "vitest.json")}`], { TEST_DATABASE_URL: "" });
if (skipPostgres) postgresNote = "skipped (--skip-postgres)";
else {
  const target = await postgresForTests();
  const required = !!process.env.CI || process.env.REQUIRE_POSTGRES === "1";
  if (target.url === null) {
    postgresNote = `skipped: ${target.reason}`;
    console.log(`\n=== integration on PostgreSQL: ${postgresNote}`);
    if (required) {
      console.log("=== integration on PostgreSQL: FAILED (CI requires it; .ci/run starts PostgreSQL)");
      summary();
      process.exit(1);
    }
  } else {
    run("integration on PostgreSQL", bin("vitest"), ["run", ...POSTGRES_PASS, ...POSTGRES_SKIP.flatMap((g) => ["--exclude", g]), "--reporter=default", "--reporter=json", `--outputFile.json=${path.join(results, "vitest-postgres.json")}`], {
      TEST_DATABASE_URL: target.url,
      // Servers the tests SIGKILL and restart resume their threads once the dead process's leases and jobs expire
      // (twice this): seconds here rather than the default minute.
      WORKER_LEASE_SECONDS: "5",
    });
  }
}
if (!skipE2e) {
  // Build first, so the build's time does not count against the browser tests' server start-up timeout.
  if (needsBuild(root)) run("build", bin("next"), ["build"]);
  run("browser", bin("playwright"), ["test"], { CI: "true" });
}
summary();
