import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
// An independent implementation of RFC 8188/8291 (Mozilla's), to decrypt what web-push encrypted.
import ece from "http_ece";

// A push service on this machine, as a browser vendor runs one: it takes the encrypted POST, checks
// the VAPID signature (RFC 8292) against the key in the Authorization header, and decrypts the
// payload with the "browser's" private key and auth secret (RFC 8291), keeping what it read.

export interface ReceivedPush {
  path: string;
  payload: Record<string, string>;
  /** The VAPID JWT's claims (aud, exp, sub), its signature checked. */
  claims: { aud: string; exp: number; sub: string };
  vapidKey: string;
  ttl: string | undefined;
}

export class PushService {
  readonly received: ReceivedPush[] = [];
  readonly refused: string[] = [];
  /** Status to answer per path (default 201). */
  readonly answers = new Map<string, number>();
  private server!: Server;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const browser = browsers.get(req.url!);
        try {
          if (!browser) throw new Error(`no browser subscribed at ${req.url}`);
          const { claims, key } = checkVapid(req.headers.authorization ?? "");
          if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
          const plain = ece.decrypt(Buffer.concat(chunks), { version: "aes128gcm", privateKey: browser.ecdh, authSecret: browser.auth.toString("base64url") });
          this.received.push({ path: req.url!, payload: JSON.parse(plain.toString("utf8")), claims, vapidKey: key, ttl: req.headers.ttl as string | undefined });
          res.writeHead(this.answers.get(req.url!) ?? 201).end();
        } catch (error) {
          this.refused.push(`${req.url}: ${(error as Error).message}`);
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** A browser's subscription at this service: what PushSubscription.toJSON() would give a page. */
  newBrowser(name: string) {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    browsers.set(`/push/${name}`, { ecdh, auth });
    return { endpoint: `${this.url}/push/${name}`, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const browsers = new Map<string, { ecdh: ECDH; auth: Buffer }>();

/** `vapid t=<jwt>, k=<public key>`: the JWT's ES256 signature checked with k. */
function checkVapid(authorization: string): { claims: ReceivedPush["claims"]; key: string } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID authorization: ${authorization.slice(0, 40)}`);
  const [, jwt, key] = match as unknown as [string, string, string];
  const [header, claims, signature] = jwt.split(".") as [string, string, string];
  const point = Buffer.from(key, "base64url");
  const publicKey = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33, 65).toString("base64url") },
    format: "jwk",
  });
  const valid = verify("sha256", Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  if (!valid) throw new Error("the VAPID signature does not verify");
  if (JSON.parse(Buffer.from(header, "base64url").toString()).alg !== "ES256") throw new Error("not ES256");
  return { claims: JSON.parse(Buffer.from(claims, "base64url").toString()), key };
}
