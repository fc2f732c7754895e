import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// An HTTP receiver that checks every request with the `standardwebhooks` package (an
// implementation we did not write). Its answers are scripted per request.

export interface Received {
  id: string;
  timestamp: string;
  headers: IncomingHttpHeaders;
  body: string;
  payload: { type: string; timestamp: string; data: any };
  verified: boolean;
  at: number;
}

export type Answer = number | "hang";

export class WebhookReceiver {
  readonly received: Received[] = [];
  private server: Server | null = null;
  private answers: Answer[] = [];
  private verifier: Webhook | null = null;
  fallback: Answer = 200;
  /** Waits this long before answering (a slow receiver). */
  delayMs = 0;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let verified = false;
        try {
          this.verifier?.verify(body, request.headers as Record<string, string>);
          verified = true;
        } catch {}
        this.received.push({
          id: String(request.headers["webhook-id"]),
          timestamp: String(request.headers["webhook-timestamp"]),
          headers: request.headers,
          body,
          payload: JSON.parse(body || "null"),
          verified,
          at: Date.now(),
        });
        const answer = this.answers.shift() ?? this.fallback;
        if (answer === "hang") return; // never answers
        setTimeout(() => {
          response.writeHead(answer, { "content-type": "text/plain" });
          response.end(answer >= 300 ? "x".repeat(5000) : "ok");
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  /** The secret the service issued; from then on every request must verify. */
  useSecret(secret: string): void {
    this.verifier = new Webhook(secret);
  }

  answer(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
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
