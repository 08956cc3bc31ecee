/**
 * Response headers that protect the pages. Every response gets the static ones (next.config.ts); pages also get a
 * Content-Security-Policy with a fresh nonce per request (proxy.ts), which Next.js puts on its own scripts and the
 * root layout on its inline theme script: no other script runs.
 */
export const STATIC_SECURITY_HEADERS: { key: string; value: string }[] = [
  // Never guess a type from the bytes (a thread file served as text stays text).
  { key: "X-Content-Type-Options", value: "nosniff" },
  // The full URL only to this origin (the CSRF check may read it), nothing to other sites.
  { key: "Referrer-Policy", value: "same-origin" },
  // No framing by another site (older browsers; newer ones read frame-ancestors below).
  { key: "X-Frame-Options", value: "DENY" },
];

/** The request header that carries the page's nonce to the root layout. */
export const NONCE_HEADER = "x-nonce";

/**
 * The pages' policy. Scripts: only those carrying this request's nonce, and what they load ('strict-dynamic'); the
 * development server also needs eval. Styles may be inline (React and the graph editor set style attributes); no
 * plugins, no framing, forms and the base URL stay on this origin, and the graph layout worker comes from this origin.
 */
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
