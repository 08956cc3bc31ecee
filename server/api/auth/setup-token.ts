import { randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The one-time setup token. Until the first account exists, only requests made on this machine run in local mode;
 * anyone else must prove they can read the server's log, where this token is printed, to create the first
 * administrator at /setup. It lives in this process's memory (process-wide, so every bundle of the server shares it)
 * and is gone once the first account exists.
 */
const KEY = Symbol.for("studio.setup-token");
type Holder = Record<symbol, { token: string; announced: boolean } | undefined>;
const holder = globalThis as unknown as Holder;

function current(): { token: string; announced: boolean } {
  holder[KEY] ??= { token: randomBytes(18).toString("base64url"), announced: false };
  return holder[KEY];
}

/** Print the token in the log (once per process), saying what it is for. */
export function announceSetupToken(): void {
  const state = current();
  if (state.announced) return;
  state.announced = true;
  console.log(
    `[auth] No account exists yet. Requests from this machine run in local mode; from elsewhere, open /setup and enter ` +
      `the one-time setup token ${state.token} to create the administrator (or set ADMIN_USERNAME and ADMIN_PASSWORD).`,
  );
}

/** True when `presented` is this process's setup token. */
export function isSetupToken(presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(current().token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Setup is done: the token is used up. */
export function retireSetupToken(): void {
  holder[KEY] = undefined;
}
