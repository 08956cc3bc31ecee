import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, NONCE_HEADER } from "@/server/api/security-headers";

/**
 * Every page request: a fresh nonce and the Content-Security-Policy built on it, set on the request (Next.js reads the
 * policy there to put the nonce on its own scripts, the root layout reads `x-nonce`) and on the response; and the
 * requested path for the root layout (`x-pathname`), which signs the visitor in or sends them to the sign-in page
 * (that check needs the database, so it runs in the layout, not here).
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-pathname", request.nextUrl.pathname + request.nextUrl.search);
  headers.set(NONCE_HEADER, nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = { matcher: ["/((?!api/|_next/|icon.svg|favicon.ico).*)"] };
