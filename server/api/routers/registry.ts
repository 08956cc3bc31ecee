import { agentSummaries, sortDiagnostics } from "@/server/registry";
import { endpointViews, mountedEndpoints } from "../endpoints/mounted";
import { builtInThreadRoutes } from "../rest/routes";
import type { App } from "../app-context";
import { wakeLoop } from "../live/wake-loop";
import { publicProcedure, router } from "../trpc";

function view(app: App) {
  const snap = app.registry.current();
  const mounted = mountedEndpoints(snap, builtInThreadRoutes);
  const llmConfigured = Boolean(app.config.OPENAI_API_KEY || app.config.OPENAI_BASE_URL);
  return {
    version: snap.version,
    loadedAt: snap.loadedAt,
    agentsDir: app.config.agentsDir,
    agents: agentSummaries(snap),
    /** The HTTP routes of `api/**` and `controllers/**`. */
    routes: endpointViews(mounted),
    diagnostics: sortDiagnostics([...snap.diagnostics, ...mounted.diagnostics]),
    llm: llmConfigured
      ? { configured: true as const, hint: null }
      : { configured: false as const, hint: "No LLM endpoint is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for Ollama, vLLM, OpenRouter or another OpenAI-compatible server)." },
  };
}

export const registryRouter = router({
  /** The agents and the diagnostics of the current registry snapshot. */
  overview: publicProcedure.query(({ ctx }) => view(ctx.app)),
  /** Pushes a fresh overview whenever a definition file changes on disk. */
  changes: publicProcedure.subscription(async function* ({ ctx, signal }) {
    for await (const _ of wakeLoop((wake) => ctx.app.registry.subscribe(wake), signal)) yield view(ctx.app);
  }),
});
