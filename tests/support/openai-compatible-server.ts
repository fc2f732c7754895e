import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A model endpoint on loopback speaking the OpenAI chat completions protocol (`POST
// /v1/chat/completions`), for the bot's and suggestions' tests: a real HTTP peer whose answers are
// scripted per request (hostile text, errors, slowness). It records what it was sent.

export interface ModelRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model: string; messages: { role: string; content: string }[] } & Record<string, unknown>;
}

export type ModelReply =
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number }; delayMs?: number }
  | { status: number; delayMs?: number };

export class OpenAiCompatibleServer {
  readonly received: ModelRequest[] = [];
  private replies: ModelReply[] = [];
  fallback: ModelReply = { status: 500 };
  private server: Server | null = null;

  /** The next requests' replies, in order; then `fallback`. */
  script(...replies: ModelReply[]): void {
    this.replies.push(...replies);
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let raw = "";
      request.on("data", (chunk) => (raw += chunk));
      request.on("end", () => {
        this.received.push({ path: request.url ?? "", headers: request.headers, body: JSON.parse(raw) });
        const reply = this.replies.shift() ?? this.fallback;
        const answer = () => {
          if (response.destroyed) return;
          if ("status" in reply) {
            response.writeHead(reply.status, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "scripted failure" } }));
            return;
          }
          response.writeHead(200, { "Content-Type": "application/json" }).end(
            JSON.stringify({
              id: `chatcmpl-${this.received.length}`,
              object: "chat.completion",
              model: "scripted",
              choices: [{ index: 0, message: { role: "assistant", content: reply.content }, finish_reason: "stop" }],
              ...(reply.usage ? { usage: { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens } } : {}),
            }),
          );
        };
        if (reply.delayMs) setTimeout(answer, reply.delayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
