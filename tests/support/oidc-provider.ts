import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWTPayload, type ProtectedHeaderParameters } from "jose";
import Provider from "oidc-provider";
import { BASE_URL } from "./api";

// A real OpenID Connect provider (`oidc-provider`, the certified server) in the test process, on
// http://127.0.0.1:<port>. The "browser" is the test: it follows redirects by hand, keeps the
// provider's cookies, and signs in as whichever account the test names (the interaction page
// finishes the login at once; consent is granted for the client's scopes).

export const CLIENT_ID = "parley-inbox";
export const CLIENT_SECRET = "parley-inbox-client-secret-0123456789";

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** Turns the ID token the provider issued (its claims and header) into the one its token endpoint answers. */
export type IdTokenForgery = (claims: JWTPayload, header: ProtectedHeaderParameters) => Promise<string>;

/** The kid of the one key the provider signs with and publishes. */
export const PUBLISHED_KID = "test-provider-key";

export class TestProvider {
  readonly accounts = new Map<string, TestAccount>();
  /** The account the next interaction signs in. */
  signInAs = "";
  /**
   * A hostile token endpoint: when set, the ID token in the token endpoint's answer is replaced by
   * what this makes of it (the real provider's claims stay valid: issuer, audience, nonce, expiry).
   */
  forgeIdToken: IdTokenForgery | null = null;
  /** The provider's own signing key (private), for tokens it would really sign. */
  signingKey!: CryptoKey;
  private server!: Server;
  issuer = "";

  async start(): Promise<this> {
    this.server = createServer();
    // Longer than fetch's own idle timeout (4 s): the client closes idle connections first, so it never
    // reuses one the server is closing (ECONNRESET on a busy machine).
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    this.signingKey = privateKey;
    const provider = new Provider(this.issuer, {
      jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: PUBLISHED_KID, alg: "RS256", use: "sig" }] },
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [new URL("/api/v1/inbox/sso/callback", BASE_URL).href],
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      pkce: { required: () => true },
      ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      cookies: { keys: ["test-provider-cookie-key-0123456789"] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => {
        const account = this.accounts.get(id);
        return account ? { accountId: id, claims: async () => ({ sub: id, ...account }) } : undefined;
      },
      loadExistingGrant: async (ctx) => {
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope("openid email profile");
        await grant.save();
        return grant;
      },
    });
    const callback = provider.callback();
    this.server.on("request", (req, res) => {
      if (req.url?.startsWith("/interaction/")) {
        void provider.interactionFinished(req, res, { login: { accountId: this.signInAs } }, { mergeWithLastSubmission: false });
        return;
      }
      if (req.url?.startsWith("/token") && this.forgeIdToken) this.replaceIdToken(res, this.forgeIdToken);
      callback(req, res);
    });
    return this;
  }

  /** Holds back the token endpoint's answer and sends it with its ID token forged. */
  private replaceIdToken(res: ServerResponse, forge: IdTokenForgery): void {
    const end = res.end.bind(res) as (body?: string) => ServerResponse;
    res.end = ((body?: Buffer | string) => {
      void (async () => {
        const answer = JSON.parse(String(body)) as { id_token?: string };
        if (answer.id_token) answer.id_token = await forge(decodeJwt(answer.id_token), decodeProtectedHeader(answer.id_token));
        const forged = JSON.stringify(answer);
        res.setHeader("Content-Length", Buffer.byteLength(forged));
        end(forged);
      })();
      return res;
    }) as typeof res.end;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Follows the provider's redirects from `url` like a browser, until one leaves the provider. */
export async function browseProvider(url: string, jar: Map<string, string> = new Map()): Promise<URL> {
  let next = new URL(url);
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, {
      redirect: "manual",
      headers: { Cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...value] = pair!.split("=");
      jar.set(name!, value.join("="));
    }
    const location = response.headers.get("location");
    if (!location) throw new Error(`The provider answered ${response.status} at ${next.pathname}: ${await response.text()}`);
    next = new URL(location, next);
    if (next.origin !== new URL(url).origin) return next;
  }
  throw new Error("Too many redirects at the provider");
}
