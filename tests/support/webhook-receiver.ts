import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { Webhook } from "standardwebhooks";

// An HTTP receiver that checks every request with the `standardwebhooks` package (an
// implementation we did not write). Its answers are scripted per request. Given a key and
// certificate it serves https; it listens on 127.0.0.1 unless told another address.

export interface Received {
  id: string;
  timestamp: string;
  headers: IncomingHttpHeaders;
  body: string;
  payload: { type: string; timestamp: string; data: any };
  verified: boolean;
  at: number;
  /** The sender closed the exchange before the receiver answered (what a sender's timeout does). */
  abandoned: boolean;
}

export type Answer = number | "hang";

export class WebhookReceiver {
  readonly received: Received[] = [];
  private server: Server | HttpsServer | null = null;
  private answers: Answer[] = [];
  private verifier: Webhook | null = null;
  fallback: Answer = 200;
  /** Waits this long before answering (a slow receiver). */
  delayMs = 0;
  /** TCP connections accepted so far. */
  connections = 0;
  /**
   * Drops, unanswered and unrecorded, every request that comes on a connection which already
   * carried one: what a sender sees when the receiver closed an idle kept-alive connection just
   * as the sender reused it.
   */
  resetReusedConnections = false;
  /** Requests dropped so. */
  resets = 0;

  constructor(private readonly options: { tls?: { key: string; cert: string }; host?: string } = {}) {}

  async start(): Promise<this> {
    const served = new WeakSet<Socket>();
    const listener: RequestListener = (request, response) => {
      if (served.has(request.socket) && this.resetReusedConnections) {
        this.resets++;
        request.socket.resetAndDestroy();
        return;
      }
      served.add(request.socket);
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let verified = false;
        try {
          this.verifier?.verify(body, request.headers as Record<string, string>);
          verified = true;
        } catch {}
        const received: Received = {
          id: String(request.headers["webhook-id"]),
          timestamp: String(request.headers["webhook-timestamp"]),
          headers: request.headers,
          body,
          payload: JSON.parse(body || "null"),
          verified,
          at: Date.now(),
          abandoned: false,
        };
        this.received.push(received);
        response.on("close", () => {
          if (!response.writableFinished) received.abandoned = true;
        });
        const answer = this.answers.shift() ?? this.fallback;
        if (answer === "hang") return; // never answers
        setTimeout(() => {
          response.writeHead(answer, { "content-type": "text/plain" });
          response.end(answer >= 300 ? "x".repeat(5000) : "ok");
        }, this.delayMs);
      });
    };
    this.server = this.options.tls ? createHttpsServer(this.options.tls, listener) : createServer(listener);
    this.server.on("connection", () => this.connections++);
    await new Promise<void>((resolve) => this.server!.listen(0, this.options.host ?? "127.0.0.1", resolve));
    return this;
  }

  /** The secret the service issued; from then on every request must verify. */
  useSecret(secret: string): void {
    this.verifier = new Webhook(secret);
  }

  answer(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  /** Closes the kept-alive connections that carry no request now, as an idle timeout would. */
  closeIdleConnections(): void {
    this.server?.closeIdleConnections();
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  get url(): string {
    const host = this.options.host ?? "127.0.0.1";
    return `${this.options.tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${this.port}/hook`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Polls until the check passes (or throws its last failure after the timeout). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
