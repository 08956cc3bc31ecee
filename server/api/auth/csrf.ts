import { ApiError } from "../errors";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** The host the client addressed (behind a proxy, the forwarded host). */
function requestHost(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("host") || new URL(request.url).host;
}

function sameHost(originOrUrl: string, request: Request): boolean {
  try {
    return new URL(originOrUrl).host === requestHost(request);
  } catch {
    return false;
  }
}

/**
 * Cross-site request protection for mutations. Browsers send `Origin` (and `Sec-Fetch-Site`) with every unsafe
 * request: one from another site is refused (403 CSRF) whatever the credentials. A cookie-authenticated mutation
 * must also prove where it comes from: without `Origin`, its `Referer` must be this origin. Bearer-token clients
 * (no cookies, so nothing a foreign page can ride on) are not asked for either header.
 */
export function assertSameOrigin(request: Request, cookieAuth: boolean): void {
  if (SAFE.has(request.method)) return;
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  const refuse = () => {
    throw new ApiError(403, "CSRF", "Cross-site request refused: mutations must come from this app's own pages (Origin check)");
  };
  if (origin) {
    if (!sameHost(origin, request)) refuse();
    return;
  }
  if (site && site !== "same-origin" && site !== "none") refuse();
  if (cookieAuth) {
    const referer = request.headers.get("referer");
    if (!referer || !sameHost(referer, request)) refuse();
  }
}
