/** Model calls through a real HTTP proxy (the `proxy` package) to the scripted server, with the real openai SDK. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { createProxy } from "proxy";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import type { ProxySettings } from "./http-dispatcher";
import { createOpenAiClient } from "./llm-client";
import { modelOn, userSays } from "./test-support";

let fake: FakeLlm;
let proxy: http.Server;
let proxyUrl: string;
/** What reached the proxy: plain requests (absolute URLs) and CONNECT tunnels. */
let seen: string[] = [];
/** Open tunnels, closed at the end (the server's close would wait for the client's pooled connection). */
const tunnels = new Set<Duplex>();

beforeAll(async () => {
  fake = await startFakeLlm({ script: [{ respond: { content: "through" } }] });
  proxy = createProxy(http.createServer());
  proxy.on("request", (req: http.IncomingMessage) => seen.push(`${req.method} ${req.url}`));
  proxy.on("connect", (req: http.IncomingMessage, socket: Duplex) => {
    seen.push(`CONNECT ${req.url}`);
    tunnels.add(socket);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of tunnels) socket.destroy();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await fake.close();
});
beforeEach(() => {
  seen = [];
  fake.clearRequests();
});

async function call(proxySettings: ProxySettings): Promise<string | null> {
  const result = await createOpenAiClient({ proxy: proxySettings, maxRetries: 0 }).complete({
    models: [modelOn(fake, "m", "model-a")],
    messages: userSays("hi"),
  });
  return result.content;
}

describe("the LLM client behind a proxy", () => {
  it("sends the model call through HTTP_PROXY", async () => {
    expect(await call({ httpProxy: proxyUrl })).toBe("through");
    expect(seen).toEqual([`CONNECT 127.0.0.1:${fake.port}`]);
    expect(fake.getRequests()).toHaveLength(1);
  });

  it("goes straight to a host NO_PROXY covers", async () => {
    expect(await call({ httpProxy: proxyUrl, noProxy: "localhost, 127.0.0.1" })).toBe("through");
    expect(seen).toEqual([]);
    expect(fake.getRequests()).toHaveLength(1);
  });

  it("leaves http endpoints alone when only HTTPS_PROXY is set", async () => {
    expect(await call({ httpsProxy: proxyUrl })).toBe("through");
    expect(seen).toEqual([]);
  });
});
