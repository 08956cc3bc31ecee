/** The part of `oidc-provider` (which ships no types) that the single sign-on tests uses. */
declare module "oidc-provider" {
  import type { Server } from "node:http";

  interface Account {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients: { client_id: string; client_secret?: string; redirect_uris: string[]; response_types?: string[]; grant_types?: string[] }[];
    claims?: Record<string, string[]>;
    findAccount(ctx: unknown, id: string): Account | undefined | Promise<Account | undefined>;
    features?: { devInteractions?: { enabled: boolean } };
    cookies?: { keys: string[] };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    listen(port: number, host: string, callback: () => void): Server;
  }
}
