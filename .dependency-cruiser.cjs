/**
 * The architecture check (`npm run lint:architecture`, a stage of `npm test`): the folders of server/runtime form
 * layers. Two kinds of rules, type-only imports included (`tsPreCompilationDeps`):
 * - no import cycle between runtime modules;
 * - each runtime folder (or top-level file) imports only itself and the entries listed before it in `LAYERS`.
 * Tests (`*.test.ts`) may import anything: they sit above the runtime (they use the harness in testing/).
 */
/* global module */

/** The runtime's folders and top-level files, bottom first. An entry may import itself and the entries before it. */
const LAYERS = [
  // Leaves: errors, ids, definitions, ports, and services that need nothing else of the runtime.
  "errors.ts",
  "ids.ts",
  "bounded-map.ts",
  "definitions.ts",
  "ports",
  "llm",
  "abort.ts",
  "events",
  "files",
  "env",
  // Spans through the OpenTelemetry API (no SDK: the composition root registers one when tracing is on).
  "tracing",
  // What every loop concern shares: RuntimeDeps (with the capabilities of the layers above), the scope, the step
  // context, the message writer, the hook runner, turns, stop rules, the tool-call context and tool schemas.
  "kernel",
  // ThreadState: it reaches tools, threads and subagents only through RuntimeDeps.capabilities.
  "state",
  // The loop's concerns.
  "side-loop",
  "subagents",
  "tools",
  "effects",
  "queue",
  // The thread loop (executor, scheduler, thread operations); thread/capabilities.ts builds the capabilities.
  "thread",
  // Composition: definitions over the registry, the Runtime class, the test harness.
  "definitions-from-registry.ts",
  "runtime.ts",
  "testing",
];

const ROOT = "server/runtime/";
const TESTS = "\\.test\\.ts$";
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The modules of one entry: a folder's files, or the file itself. */
const modulesOf = (entry) => (entry.endsWith(".ts") ? `^${escape(ROOT + entry)}$` : `^${escape(ROOT + entry)}/`);

const FIX =
  "Move what both sides need down a layer (into kernel/ when every loop concern shares it), or hand the operation " +
  "in through RuntimeDeps.capabilities (declared in kernel/deps.ts, built in thread/capabilities.ts).";

const layerRules = LAYERS.slice(0, -1).map((entry, i) => {
  const above = LAYERS.slice(i + 1);
  return {
    name: `runtime-layer:${entry}`,
    severity: "error",
    comment:
      `server/runtime/${entry} may import only itself and what LAYERS in .dependency-cruiser.cjs lists before it; ` +
      `${above.join(", ")} sit above it. ${FIX}`,
    from: { path: modulesOf(entry), pathNot: TESTS },
    to: { path: above.map(modulesOf) },
  };
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "An import cycle between runtime modules (type-only imports count). Break it: move what both modules need " +
        "into a module below them, or, between layers, hand the operation in through RuntimeDeps.capabilities.",
      from: { path: `^${escape(ROOT)}` },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "runtime-layer:unlisted",
      severity: "error",
      comment:
        "A runtime folder or top-level file that LAYERS in .dependency-cruiser.cjs does not list: add it there, " +
        "above everything it imports and below everything that imports it.",
      from: { path: `^${escape(ROOT)}`, pathNot: [...LAYERS.map(modulesOf), TESTS] },
      to: { path: `^${escape(ROOT)}` },
    },
    {
      name: "runtime-layer:unlisted-target",
      severity: "error",
      comment:
        "An import of a runtime folder or top-level file that LAYERS in .dependency-cruiser.cjs does not list: add it " +
        "there, above everything it imports and below everything that imports it.",
      from: { path: `^${escape(ROOT)}` },
      to: { path: `^${escape(ROOT)}`, pathNot: LAYERS.map(modulesOf) },
    },
  ],
  options: {
    // Type-only imports are dependencies too: a type cycle is still a knot.
    tsPreCompilationDeps: true,
    // For the `@/` path alias.
    tsConfig: { fileName: "tsconfig.json" },
    includeOnly: `^${escape(ROOT)}`,
    doNotFollow: { path: "node_modules" },
  },
};
