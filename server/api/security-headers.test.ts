import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import nextConfig from "@/next.config";

describe("page security headers", () => {
  it("sends every page a CSP whose scripts need this request's nonce, and forbids framing", () => {
    const first = proxy(new NextRequest("http://studio.test/threads?x=1"));
    const policy = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(policy).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    // Handed to the page render: the nonce for the layout, the policy for Next.js's own scripts, the path.
    expect(first.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(first.headers.get("x-middleware-request-x-pathname")).toBe("/threads?x=1");
    // A fresh nonce every time.
    const second = proxy(new NextRequest("http://studio.test/threads"));
    expect(second.headers.get("x-middleware-request-x-nonce")).not.toBe(nonce);
  });

  it("sends nosniff, a Referrer-Policy and X-Frame-Options with every response", async () => {
    const rules = await nextConfig.headers!();
    expect(rules).toEqual([
      {
        source: "/:path*",
        headers: expect.arrayContaining([
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ]),
      },
    ]);
  });
});
