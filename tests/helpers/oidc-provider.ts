import type { Server } from "node:http";
import net from "node:net";
import Provider from "oidc-provider";

/** A free TCP port on 127.0.0.1 (the provider's issuer URL must be known before the app that uses it starts). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1, for the single sign-on tests. Its
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
    private redirectUri = "",
  ) {
    this.issuer = `http://127.0.0.1:${port}`;
  }

  /** Start, accepting `redirectUri` (when not given to the constructor) as the client's callback. */
  async start(redirectUri = this.redirectUri): Promise<void> {
    this.redirectUri = redirectUri;
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
