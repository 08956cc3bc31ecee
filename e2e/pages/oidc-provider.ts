import type { Server } from "node:http";
import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1, for the single sign-on journey. Its
 * development sign-in page accepts any login name with any password; the name is the account's subject and
 * preferred_username, and a name starting with "boss" is in the `studio-admins` group.
 */
export class OidcProvider {
  readonly issuer: string;
  readonly clientId = "studio";
  readonly clientSecret = "studio-e2e-secret";
  private server: Server | undefined;

  constructor(
    private readonly port: number,
    private readonly redirectUri: string,
  ) {
    this.issuer = `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    const provider = new Provider(this.issuer, {
      clients: [{ client_id: this.clientId, client_secret: this.clientSecret, redirect_uris: [this.redirectUri], response_types: ["code"], grant_types: ["authorization_code"] }],
      claims: { openid: ["sub"], profile: ["preferred_username", "name"], email: ["email"], groups: ["groups"] },
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: () => ({ sub: id, preferred_username: id, name: id, email: `${id}@example.test`, groups: id.startsWith("boss") ? ["staff", "studio-admins"] : ["staff"] }),
      }),
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ["oidc-e2e-cookie-key"] },
    });
    await new Promise<void>((resolve) => {
      this.server = provider.listen(this.port, "127.0.0.1", () => resolve());
    });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
