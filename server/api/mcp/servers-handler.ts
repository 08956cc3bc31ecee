import type { App } from "../app-context";
import type { RouteContext } from "../rest/router";
import { mcpLiveStatus } from "./live-status";

/**
 * `GET /api/mcp-servers`: the MCP servers of `mcp/*.ts` with their connection state in this process (idle until a
 * thread first uses one), the tools they listed, and the prompts that offer them. Header and env values are never
 * shown (only their names): they may hold secrets.
 */
export async function mcpServersHandler({ app }: RouteContext<App>): Promise<Response> {
  const snap = app.registry.current();
  const live = new Map(mcpLiveStatus(app).map((s) => [s.name, s]));
  const servers = [...snap.mcpServers.values()].map((r) => {
    const d = r.definition;
    const s = live.get(r.name);
    const usedBy = [...snap.prompts.values()].flatMap((p) =>
      p.tools.filter((e) => e.kind === "mcp" && e.server === r.name).map((e) => ({ prompt: p.name, tool: e.kind === "mcp" ? e.tool : "" })),
    );
    return {
      name: r.name,
      file: r.file,
      transport: d.transport,
      ...(d.url ? { url: d.url } : {}),
      ...(d.command ? { command: [d.command, ...(d.args ?? [])].join(" ") } : {}),
      headerNames: Object.keys(d.headers ?? {}),
      envNames: Object.keys(d.env ?? {}),
      allowedTools: d.tools ?? null,
      state: s?.state ?? "idle",
      ...(s?.error ? { error: s.error, retryAt: s.retryAt } : {}),
      tools: s?.tools?.map((t) => ({ name: t.name, description: t.description ?? "" })) ?? null,
      usedBy,
    };
  });
  return Response.json({ servers });
}
