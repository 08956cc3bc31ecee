import { describe, expect, it } from "vitest";
import { FrontRequest, fetchRequestOf } from "./front-request";
import { createRestDispatcher } from "./rest/router";

const pairs: [string, string][] = [
  ["content-type", "application/json"],
  ["x-multi", "a"],
  ["x-multi", "b"],
];
const lite = (body: Buffer | null, method = "POST") => new FrontRequest("http://h/api/x?q=1", method, pairs, body, new AbortController().signal);

describe("FrontRequest", () => {
  it("reads as a Request reads: headers, text (a leading byte-order mark dropped, once), json", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"content":"héllo ✓"}')]);
    const ours = lite(bytes);
    const theirs = new Request("http://h/api/x?q=1", { method: "POST", headers: pairs, body: bytes });
    expect(ours.headers.get("x-multi")).toBe(theirs.headers.get("x-multi"));
    expect(await ours.text()).toBe(await theirs.text());
    expect(ours.bodyUsed).toBe(true);
    await expect(ours.text()).rejects.toThrow(TypeError);
    expect(await lite(Buffer.from('{"a":1}')).json()).toEqual({ a: 1 });
    expect(await lite(null, "GET").text()).toBe("");
  });

  it("becomes the same fetch Request for routes that need one, once", async () => {
    const ours = lite(Buffer.from("body"));
    const request = fetchRequestOf(ours as unknown as Request);
    expect(request).toBeInstanceOf(Request);
    expect(fetchRequestOf(ours as unknown as Request)).toBe(request);
    expect(request.method).toBe("POST");
    expect(request.url).toBe("http://h/api/x?q=1");
    expect(request.headers.get("x-multi")).toBe("a, b");
    expect(await request.text()).toBe("body");
    const plain = new Request("http://h/");
    expect(fetchRequestOf(plain)).toBe(plain);
  });

  it("reaches lite routes as it is and every other route as a Request", async () => {
    const seen: Record<string, boolean> = {};
    const dispatch = createRestDispatcher(
      [
        { method: "POST", path: "/api/health", handler: ({ request }) => ((seen.lite = request instanceof Request), new Response("ok")), lite: true },
        { method: "POST", path: "/api/auth/login", handler: ({ request }) => ((seen.other = request instanceof Request), new Response("ok")) },
      ],
      async () => ({}),
    );
    const at = (path: string) => new FrontRequest(`http://h${path}`, "POST", pairs, Buffer.from("{}"), new AbortController().signal) as unknown as Request;
    expect((await dispatch(at("/api/health"))).status).toBe(200);
    expect((await dispatch(at("/api/auth/login"))).status).toBe(200);
    expect(seen).toEqual({ lite: false, other: true });
  });
});
