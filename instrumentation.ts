/** Next.js calls this once when the server starts: boot the app (migrations, registry, runtime) in-process. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getApp } = await import("./server/worker/app");
  const { anyUser } = await import("./server/api/auth/guard");
  const { announceSetupToken } = await import("./server/api/auth/setup-token");
  const app = await getApp();
  // Until the first account exists, setup from another machine needs the token this prints.
  if (!(await anyUser(app))) announceSetupToken();
  const snap = app.registry.current();
  const { componentLogger } = await import("./server/observability/logger");
  componentLogger("studio").info(
    { agents: snap.agents.size, agentsDir: app.config.agentsDir, diagnostics: snap.diagnostics.length, database: app.config.database.kind },
    `ready: ${snap.agents.size} agent(s), ${snap.diagnostics.length} diagnostic(s), database ${app.config.database.kind === "sqlite" ? "SQLite" : "PostgreSQL"}`,
  );
}
