import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { loadRegistry } from "./registry";
import { projectRoot, specModulePath } from "./test-fixtures";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-agents-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/*
 * The browser tests' server loads the example graph plus e2e/fixtures/agents into one folder (scripts/e2e-server.ts),
 * and several journeys (home page, diagnostics, editor) start from "no diagnostics". A fixture that adds a warning
 * breaks them all in the browser; this says so in a second, naming the file and the field.
 */
it("the browser tests' definitions (example graph + e2e fixtures) load with no diagnostics", async () => {
  fs.cpSync(path.join(projectRoot, "agents"), tmp, { recursive: true });
  fs.cpSync(path.join(projectRoot, "e2e/fixtures/agents"), tmp, { recursive: true });
  const snap = await loadRegistry({ dir: tmp, projectRoot, specModulePath });
  expect(snap.diagnostics.map((d) => `${d.file} ${d.field ?? ""}: ${d.message}`)).toEqual([]);
  expect(snap.agents.size).toBeGreaterThan(4);
});
