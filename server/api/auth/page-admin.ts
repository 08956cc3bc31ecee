import { headers } from "next/headers";
import type { App } from "../app-context";
import { pageAuth } from "./page-auth";

/** True when the page's visitor is an administrator (admin pages render a 403 notice otherwise). */
export async function pageIsAdmin(app: App): Promise<boolean> {
  const auth = await pageAuth(app, await headers());
  return auth.caller?.role === "admin";
}
