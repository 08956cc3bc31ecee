import { describe, expect, it } from "vitest";
import { clientAddress, isLocalRequest, PEER_HEADER, stampPeerAddress } from "./client-address";

function request(peer: string, headers: Record<string, string> = {}): Request {
  const h: Record<string, string | string[] | undefined> = { ...headers, [PEER_HEADER]: "forged-by-client" };
  stampPeerAddress(h, peer);
  return new Request("http://app.test/api/auth/login", { headers: h as Record<string, string> });
}

describe("the client address", () => {
  it("is the socket address; a client's own X-Forwarded-For or peer header is ignored", () => {
    expect(clientAddress(request("10.1.2.3", { "x-forwarded-for": "1.1.1.1" }), undefined)).toBe("10.1.2.3");
    expect(clientAddress(request("::ffff:10.1.2.3"), undefined)).toBe("10.1.2.3");
  });

  it("behind a trusted proxy, is the rightmost untrusted address of X-Forwarded-For", () => {
    const trusted = "10.0.0.0/8, ::1";
    expect(clientAddress(request("10.0.0.5", { "x-forwarded-for": "203.0.113.9" }), trusted)).toBe("203.0.113.9");
    expect(clientAddress(request("10.0.0.5", { "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.7" }), trusted)).toBe("203.0.113.9");
    expect(clientAddress(request("10.0.0.5", { "x-forwarded-for": "not-an-ip, 10.0.0.7" }), trusted)).toBe("10.0.0.5");
    expect(clientAddress(request("10.0.0.5"), trusted)).toBe("10.0.0.5");
    expect(clientAddress(request("::1", { "x-forwarded-for": "2001:db8::1" }), trusted)).toBe("2001:db8::1");
  });

  it("is local only for a loopback client whose request was not relayed", () => {
    expect(isLocalRequest(request("127.0.0.1"), undefined)).toBe(true);
    expect(isLocalRequest(request("::1"), undefined)).toBe(true);
    expect(isLocalRequest(request("192.168.1.4"), undefined)).toBe(false);
    // A reverse proxy on the same machine that is not declared still adds its header.
    expect(isLocalRequest(request("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }), undefined)).toBe(false);
    expect(isLocalRequest(request("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }), "127.0.0.1")).toBe(false);
  });
});
