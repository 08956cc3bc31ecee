import type { ApiScope } from "./api-scopes";

/** Who is calling: resolved once per request by the API's auth guard and handed to every route (and to the page header). */
export interface Caller {
  /** The signed-in user, or null in the local, account-less mode. */
  userId: string | null;
  username: string | null;
  role: "admin" | "user";
  via: "local" | "session" | "api-key";
  /** An API key's scopes (absent for sessions and local mode, which are limited by the role alone). */
  scopes?: ApiScope[];
}
