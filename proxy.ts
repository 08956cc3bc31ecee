import { NextResponse, type NextRequest } from "next/server";

/**
 * Hands the requested path to the root layout (`x-pathname`), which signs the visitor in or sends them to the sign-in
 * page. The check itself needs the database, so it runs in the layout, not here.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set("x-pathname", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/((?!api/|_next/|icon.svg|favicon.ico).*)"] };
