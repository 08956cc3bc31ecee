import { BlockList, isIP } from "node:net";

/**
 * Who is on the other end of a request. The fetch `Request` the routes see carries no socket, so the HTTP servers in
 * front of them (scripts/next-server.ts for Next.js, server/api/node-http.ts for the plain Node server) write the
 * socket's address into `PEER_HEADER`, replacing whatever a client sent under that name, and say so in a process-wide
 * mark. Without that mark (an unknown front server) the header is ignored, since a client could have written it.
 */
export const PEER_HEADER = "x-studio-peer";
/** "1" when the request arrived with a forwarding header (written by the front server too: Next.js adds its own). */
const RELAYED_HEADER = "x-studio-relayed";
const FORWARDING = ["x-forwarded-for", "forwarded", "x-real-ip"];
const STAMPED = Symbol.for("studio.peer-header-stamped");

/**
 * Called by a front server on every request, before anything else reads or adds headers: overwrites `PEER_HEADER`
 * with the socket's address and records whether the request came with a forwarding header.
 */
export function stampPeerAddress(headers: Record<string, string | string[] | undefined>, socketAddress: string | undefined): void {
  (globalThis as Record<symbol, unknown>)[STAMPED] = true;
  headers[PEER_HEADER] = socketAddress ?? "";
  headers[RELAYED_HEADER] = FORWARDING.some((h) => headers[h] !== undefined) ? "1" : "0";
}

/** What these functions read of a request: its headers (a fetch `Request`, or a page's `headers()`). */
export interface HasHeaders {
  headers: { get(name: string): string | null; has(name: string): boolean };
}

/** The socket address of the request's sender, or null when no trusted front server recorded it. */
export function peerAddress(request: HasHeaders): string | null {
  if (!(globalThis as Record<symbol, unknown>)[STAMPED]) return null;
  return normalizeAddress(request.headers.get(PEER_HEADER) ?? "");
}

/** `::ffff:10.0.0.1` is the IPv4 address 10.0.0.1 as an IPv6 socket reports it. */
export function normalizeAddress(address: string): string | null {
  const a = address.trim().replace(/^\[|\]$/g, "");
  const unmapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a)?.[1] ?? a;
  return isIP(unmapped) ? unmapped.toLowerCase() : null;
}

const lists = new Map<string, BlockList>();

/**
 * `TRUSTED_PROXIES`: comma-separated addresses or CIDR ranges (`10.0.0.0/8`, `::1`) of the reverse proxies whose
 * `X-Forwarded-For` is believed. Throws on an entry that is neither, so a typo is found at start.
 */
export function parseTrustedProxies(setting: string | undefined): BlockList {
  const key = setting ?? "";
  const cached = lists.get(key);
  if (cached) return cached;
  const list = new BlockList();
  for (const entry of key.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [raw, bits] = entry.split("/");
    const address = normalizeAddress(raw ?? "");
    if (!address) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (type === "ipv6" ? 128 : 32)) throw new Error(`TRUSTED_PROXIES: "${entry}" has a bad prefix length`);
      list.addSubnet(address, prefix, type);
    }
  }
  lists.set(key, list);
  return list;
}

function trusted(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address for rate limits and local mode: the socket address, unless the socket is a trusted proxy; then
 * the `X-Forwarded-For` chain is read from the right (the entries the trusted proxies appended) and the first address
 * that is not itself a trusted proxy is the client. Anything left of it was written by the client and is ignored.
 * `"unknown"` when no trusted front server recorded the socket.
 */
export function clientAddress(request: HasHeaders, trustedProxies: string | undefined): string {
  const peer = peerAddress(request);
  if (!peer) return "unknown";
  const list = parseTrustedProxies(trustedProxies);
  if (!trusted(list, peer)) return peer;
  const chain = (request.headers.get("x-forwarded-for") ?? "").split(",").map((s) => normalizeAddress(s));
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i];
    if (!hop) return peer; // A malformed hop: nothing to its left can be believed.
    if (!trusted(list, hop)) return hop;
  }
  return chain[0] ?? peer;
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/**
 * True for a request made on this machine, not relayed: the client is a loopback address and the request carries no
 * forwarding header (a reverse proxy on the same machine that is not in TRUSTED_PROXIES still adds one).
 */
export function isLocalRequest(request: HasHeaders, trustedProxies: string | undefined): boolean {
  const client = clientAddress(request, trustedProxies);
  if (client === "unknown" || !loopback.check(client, isIP(client) === 6 ? "ipv6" : "ipv4")) return false;
  // A loopback client named by a trusted proxy is local; a loopback socket is local unless it relayed someone.
  return peerAddress(request) !== client || request.headers.get(RELAYED_HEADER) !== "1";
}
