/**
 * Control client for a scripted server running in another process (for example the one the browser tests start):
 * replace its script and read or clear its request log over HTTP. `baseUrl` may be the server root or its `/v1` URL.
 */
import type { LoggedRequest } from "./request-log";
import type { ParsedRule, Rule } from "./script-schema";

function controlUrl(baseUrl: string, path: string): string {
  const root = baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${root}${path}`;
}

async function call<T>(baseUrl: string, path: string, init: RequestInit = {}): Promise<T> {
  const url = controlUrl(baseUrl, path);
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
    } catch {
      // not JSON: keep the raw text
    }
    throw new Error(`fake-llm ${init.method ?? "GET"} ${url} failed with ${res.status}: ${message}`);
  }
  return JSON.parse(text) as T;
}

/** Replaces the script (and resets rule hit counters). Throws with the server's message naming the bad field path. */
export async function setScript(baseUrl: string, rules: Rule[]): Promise<void> {
  await call(baseUrl, "/__script", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
}

export async function getScript(baseUrl: string): Promise<{ rules: ParsedRule[]; hits: number[] }> {
  return call(baseUrl, "/__script");
}

export async function getRequests(baseUrl: string): Promise<LoggedRequest[]> {
  const body = await call<{ requests: LoggedRequest[] }>(baseUrl, "/__requests");
  return body.requests;
}

export async function clearRequests(baseUrl: string): Promise<void> {
  await call(baseUrl, "/__requests", { method: "DELETE" });
}
