import { headers } from "next/headers";
import { pageAuth } from "./page-auth";

/** True when the page's visitor is an administrator (admin pages render a 403 notice otherwise). */
export async function pageIsAdmin(): Promise<boolean> {
  const auth = await pageAuth((await headers()).get("cookie"));
  return auth.caller?.role === "admin";
}
