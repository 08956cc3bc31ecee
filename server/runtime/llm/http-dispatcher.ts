/**
 * The connection pool under the LLM client's HTTP transport: an undici `Agent` with keep-alive, or undici's
 * `EnvHttpProxyAgent` when a proxy is configured, which sends each request through the HTTP or HTTPS proxy unless its
 * host is in the no-proxy list (a plain request to an `http:` proxy, a `CONNECT` tunnel for `https:` endpoints).
 *
 * The proxy settings come from the composition root (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, read once in server/env.ts).
 * Every one is handed to `EnvHttpProxyAgent` explicitly, empty when unset: left undefined, undici would read
 * process.env itself. undici drops a pooled socket before the keep-alive timeout the server advertises runs out, and
 * as soon as the server closes it while it sits idle.
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from "undici";

export interface ProxySettings {
  /** Proxy for `http:` endpoints (HTTP_PROXY), e.g. `http://proxy.example.com:3128`. */
  httpProxy?: string;
  /** Proxy for `https:` endpoints (HTTPS_PROXY); the HTTP proxy when absent. */
  httpsProxy?: string;
  /**
   * Hosts reached directly (NO_PROXY): names or IP addresses separated by commas or spaces, each optionally with a
   * `:port`; `example.com` and `.example.com` also cover its subdomains; `*` alone turns the proxy off.
   */
  noProxy?: string;
}

/**
 * Margin before the keep-alive timeout a server advertises (`Keep-Alive: timeout=…`): a pooled socket is not reused
 * once less than this is left. undici's default (2 s) never reuses a socket of a server that keeps idle connections
 * for 2 s or less, such as the scripted server (1 s): a connection per request costs a handshake (more with TLS) on
 * every step.
 */
const KEEP_ALIVE_MARGIN_MS = 500;

/** The pool for these settings: a plain keep-alive one, or the proxy-aware one when a proxy is configured. */
export function createDispatcher(proxy: ProxySettings = {}): Dispatcher {
  const pool = { keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS };
  if (!proxy.httpProxy && !proxy.httpsProxy) return new Agent(pool);
  return new EnvHttpProxyAgent({
    ...pool,
    httpProxy: proxy.httpProxy ?? "",
    httpsProxy: proxy.httpsProxy ?? "",
    noProxy: proxy.noProxy ?? "",
  });
}
