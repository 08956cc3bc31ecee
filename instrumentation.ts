/** Next.js calls this once when the server starts: boot the app (migrations, registry, runtime) in-process. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getApp } = await import("./server/worker/app");
  const app = await getApp();
  const snap = app.registry.current();
  console.log(
    `[studio] ready: ${snap.agents.size} agent(s) from ${app.config.agentsDir}, ${snap.diagnostics.length} diagnostic(s), database ${app.config.database.kind === "sqlite" ? "SQLite" : "PostgreSQL"}`,
  );
}
