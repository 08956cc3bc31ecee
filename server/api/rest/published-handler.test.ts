import { afterEach, describe, expect, it } from "vitest";
import { serveFetchHandler } from "../node-http";
import { isDirectApiRequest, publishedRestHandler, publishRestHandler } from "./published-handler";

describe("the REST API answered at the HTTP front", () => {
  it("takes REST paths with the routes' methods, leaves tRPC, pages, HEAD/OPTIONS and trailing slashes to Next.js", () => {
    expect(isDirectApiRequest("POST", "/api/threads/abc/messages")).toBe(true);
    expect(isDirectApiRequest("GET", "/api/threads/abc/stream?lastEventId=3")).toBe(true);
    expect(isDirectApiRequest("DELETE", "/api/threads/abc/messages/m1")).toBe(true);
    expect(isDirectApiRequest("GET", "/api/trpc/threads.list?batch=1")).toBe(false);
    expect(isDirectApiRequest("POST", "/api/trpc")).toBe(false);
    expect(isDirectApiRequest("GET", "/threads/abc")).toBe(false);
    expect(isDirectApiRequest("GET", "/apiary")).toBe(false);
    expect(isDirectApiRequest("HEAD", "/api/health")).toBe(false);
    expect(isDirectApiRequest("OPTIONS", "/api/health")).toBe(false);
    expect(isDirectApiRequest("GET", "/api/threads/")).toBe(false);
    expect(isDirectApiRequest(undefined, undefined)).toBe(false);
  });

  const KEY = Symbol.for("standard-agents-studio.rest-handler");
  afterEach(() => {
    delete (globalThis as Record<symbol, unknown>)[KEY];
  });

  it("publishes one handler process-wide (every bundle's copy of the module sees it)", () => {
    expect(publishedRestHandler()).toBeUndefined();
    const handler = async () => new Response("ok");
    publishRestHandler(handler);
    expect((globalThis as Record<symbol, unknown>)[KEY]).toBe(handler);
    expect(publishedRestHandler()).toBe(handler);
  });
});

describe("answerWithFetchHandler over real HTTP", () => {
  it("keeps every Set-Cookie header and streams the body", async () => {
    const server = await serveFetchHandler(async () => {
      const headers = new Headers({ "content-type": "text/plain" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      return new Response("hello", { headers });
    });
    try {
      const res = await fetch(`${server.url}/api/anything`);
      expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
      expect(await res.text()).toBe("hello");
    } finally {
      await server.close();
    }
  });
});
