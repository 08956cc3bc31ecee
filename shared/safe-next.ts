/**
 * Where to go after sign-in: the `next` parameter only if it resolves, against this origin, to a page of this origin;
 * otherwise home. It is parsed exactly as the browser will parse it (`new URL`), so every trick that makes a "path"
 * leave the site (`/\evil.example`, `/\t/evil.example`, `//evil.example`, `/.//evil.example`, `javascript:`) is
 * caught by comparing origins, not by pattern. The answer is an absolute URL of `origin`, never a relative one that
 * a browser could read as protocol-relative.
 */
export function safeNextUrl(next: string | null | undefined, origin: string): string {
  const home = new URL("/", origin);
  if (!next) return home.href;
  try {
    const url = new URL(next, home);
    return url.origin === home.origin ? url.href : home.href;
  } catch {
    return home.href;
  }
}
