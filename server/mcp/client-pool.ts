import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  McpUnavailableError,
  type McpCallResult,
  type McpClientPort,
  type McpServerConnection,
  type McpServerStatus,
  type McpToolInfo,
} from "@/server/runtime/ports";
import { toCallResult } from "./call-result";
import { nextRetryDelay } from "./backoff";

export interface McpClientPoolOptions {
  /** Longest time to connect and initialize a session (default 30 s: a stdio server may be slow to start). */
  connectTimeoutMs?: number;
  /** Reconnect backoff: first delay and ceiling (defaults 500 ms and 30 s). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A session unused this long is closed (its stdio process ends); it opens again on next use (default 10 min). */
  idleMs?: number;
  /** Working directory of stdio servers whose definition gives none (the project root). */
  cwd: string;
  log(level: "info" | "warn", message: string, data?: Record<string, unknown>): void;
}

/** One session with one server, for one set of resolved settings (headers and env may differ per user). */
interface Session {
  name: string;
  client: Client | null;
  connecting: Promise<Client> | null;
  tools: McpToolInfo[] | null;
  failures: number;
  retryAt: number;
  lastUsed: number;
  error?: string;
  /** The error with the stderr tail (may hold what the server printed: only for the tool error, which is masked). */
  detail?: string;
  /** The last lines a stdio server wrote to stderr, to explain a failure. */
  stderr: string[];
}

const keyOf = (c: McpServerConnection) => createHash("sha256").update(JSON.stringify(c)).digest("hex");

/**
 * The MCP client the runtime uses: one SDK `Client` per server and settings, connected on first use, reconnected
 * with exponential backoff after a failure (a call during the backoff fails at once with the reason), tools listed
 * once per session.
 */
export function createMcpClientPool(options: McpClientPoolOptions): McpClientPort {
  const sessions = new Map<string, Session>();
  const connectTimeoutMs = options.connectTimeoutMs ?? 30_000;

  const idleMs = options.idleMs ?? 600_000;
  // Settings differ per user when headers or env hold their variables: sessions unused for idleMs are closed.
  const evictIdle = () => {
    const now = Date.now();
    for (const [key, s] of sessions) {
      if (now - s.lastUsed < idleMs || s.connecting) continue;
      sessions.delete(key);
      void s.client?.close().catch(() => undefined);
    }
  };

  const sessionFor = (conn: McpServerConnection): Session => {
    const key = keyOf(conn);
    let s = sessions.get(key);
    if (!s) {
      s = { name: conn.name, client: null, connecting: null, tools: null, failures: 0, retryAt: 0, lastUsed: 0, stderr: [] };
      sessions.set(key, s);
    }
    s.lastUsed = Date.now();
    evictIdle();
    return s;
  };

  const drop = (s: Session, client: Client) => {
    if (s.client !== client) return;
    s.client = null;
    s.tools = null;
    void client.close().catch(() => undefined);
  };

  async function connect(s: Session, conn: McpServerConnection): Promise<Client> {
    // The SDK loads on first use: an app with no MCP server does not pay for it at start.
    const [{ Client }, { openTransport }] = await Promise.all([import("@modelcontextprotocol/sdk/client/index.js"), import("./transport")]);
    const client = new Client({ name: "standard-agents-studio", version: "1.0.0" });
    try {
      const transport: Transport = openTransport(conn, options.cwd, (line) => {
        s.stderr.push(line);
        if (s.stderr.length > 5) s.stderr.shift();
      });
      await client.connect(transport, { timeout: connectTimeoutMs });
    } catch (err) {
      await client.close().catch(() => undefined);
      s.failures++;
      s.retryAt = Date.now() + nextRetryDelay(s.failures, options.backoffBaseMs, options.backoffMaxMs);
      const tail = s.stderr.length > 0 ? ` (stderr: ${s.stderr.join(" | ").slice(-300)})` : "";
      s.error = err instanceof Error ? err.message : String(err);
      s.detail = `${s.error}${tail}`;
      options.log("warn", `MCP server ${conn.name} is unavailable`, { error: s.error, failures: s.failures });
      throw unavailable(s);
    }
    s.failures = 0;
    s.retryAt = 0;
    delete s.error;
    delete s.detail;
    // A closed session (the process exited, the HTTP session ended) is opened again on next use.
    client.onclose = () => drop(s, client);
    s.client = client;
    options.log("info", `MCP server ${conn.name} connected`, { transport: conn.transport });
    return client;
  }

  function unavailable(s: Session): McpUnavailableError {
    const wait = Math.max(0, s.retryAt - Date.now());
    return new McpUnavailableError(
      s.name,
      `MCP server ${s.name} is unavailable: ${s.detail ?? s.error ?? "not connected"}. The next connection attempt is in ${Math.ceil(wait / 1000)} s.`,
      new Date(s.retryAt),
    );
  }

  async function clientFor(conn: McpServerConnection): Promise<Client> {
    const s = sessionFor(conn);
    if (s.client) return s.client;
    if (s.connecting) return s.connecting;
    if (s.retryAt > Date.now()) throw unavailable(s);
    s.connecting = connect(s, conn).finally(() => {
      s.connecting = null;
    });
    return s.connecting;
  }

  return {
    async listTools(conn) {
      const s = sessionFor(conn);
      const client = await clientFor(conn);
      if (s.tools && s.client === client) return s.tools;
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: connectTimeoutMs });
        for (const t of page.tools)
          tools.push({ name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: t.inputSchema as Record<string, unknown> });
        cursor = page.nextCursor;
      } while (cursor);
      if (s.client === client) s.tools = tools;
      return tools;
    },

    async callTool(conn, tool, args, opts): Promise<McpCallResult> {
      const s = sessionFor(conn);
      const client = await clientFor(conn);
      try {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, {
          signal: opts.signal,
          timeout: opts.timeoutMs,
          maxTotalTimeout: opts.timeoutMs,
          ...(opts.onProgress ? { onprogress: (p: { progress: number; total?: number; message?: string }) => opts.onProgress!(p) } : {}),
        });
        return toCallResult(result);
      } catch (err) {
        // A broken connection is opened again next time; a timeout or a cancelled call leaves it open.
        if (!opts.signal.aborted && /closed|ECONNREFUSED|fetch failed|socket/i.test(err instanceof Error ? err.message : "")) drop(s, client);
        throw err;
      }
    },

    status(): McpServerStatus[] {
      const byName = new Map<string, McpServerStatus>();
      for (const s of sessions.values()) {
        const state: McpServerStatus["state"] = s.client ? "connected" : s.connecting ? "connecting" : s.error ? "down" : "idle";
        const entry: McpServerStatus = {
          name: s.name,
          state,
          ...(s.error && !s.client ? { error: s.error, retryAt: new Date(s.retryAt).toISOString() } : {}),
          ...(s.tools ? { tools: s.tools } : {}),
        };
        const prev = byName.get(s.name);
        if (!prev || (prev.state !== "connected" && state === "connected")) byName.set(s.name, entry);
      }
      return [...byName.values()];
    },

    async close() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.client?.close().catch(() => undefined)));
    },
  };
}
