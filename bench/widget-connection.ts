import type { IncomingHttpHeaders } from "node:http";
import { Client, type Dispatcher } from "undici";

// One kept-alive connection of a simulated widget, for bench/widget-holders.ts. Tens of thousands
// of these sit in one load-generator process on the servers' machine, so each request must cost
// little. undici's Client is one connection with its parser and nothing else (no agent, no socket
// pool, no IncomingMessage stream), `dispatch` hands over status, headers and body chunks without
// a stream in between, and it binds the local address the widgets need (bench/open-widgets.ts
// spreads them over loopback addresses so client ports do not run out). Against an http.Agent and
// http.request per widget, the CPU per request fell from 138–167 to 47 µs with answers after
// 100 ms, and from 312 to 124 µs after 2.5 s (bench/holders-cpu.ts, 2,000 widgets). What is left
// is mostly the socket writes and GC, which a hand-written client on net.Socket would pay as well.

export interface Answer {
  status: number;
  body: string;
  /** Retry-After in seconds (0 when absent), as the widget reads it. */
  retryAfter: number;
  /** The first try went out on a kept-alive connection the server had just closed (see `get`). */
  retriedStaleConnection: boolean;
}

/** Answers received on the connection's current socket: a socket that has answered is a reused one. */
interface SocketUse {
  answered: number;
}

export class WidgetConnection {
  private readonly client: Client;
  private readonly socketUse: SocketUse = { answered: 0 };

  constructor(port: number, localAddress: string) {
    this.client = new Client(`http://127.0.0.1:${port}`, {
      localAddress,
      pipelining: 1,
      // Node's http.Agent, which this replaces, drops an idle socket 1 s before the server's
      // Keep-Alive hint (5 s), undici 2 s before: the 3-s presence poll would race the close.
      keepAliveTimeoutThreshold: 1_000,
    });
    this.client.on("disconnect", () => (this.socketUse.answered = 0));
  }

  /**
   * A GET that fails because its kept-alive connection was closed by the server at that very moment
   * (the server's idle timeout racing the reuse) is sent again once, on a new connection, as
   * browsers do; the answer says so.
   */
  async get(path: string, headers: string[]): Promise<Answer> {
    try {
      return await this.getOnce(path, headers);
    } catch (error) {
      if (!(error instanceof StaleConnection)) throw error;
      return { ...(await this.getOnce(path, headers)), retriedStaleConnection: true };
    }
  }

  close(): Promise<void> {
    return this.client.destroy();
  }

  private getOnce(path: string, headers: string[]): Promise<Answer> {
    return new Promise((resolve, reject) => this.client.dispatch({ method: "GET", path, headers }, new AnswerReader(this.socketUse, resolve, reject)));
  }
}

/** One answer's status, Retry-After and body, as undici hands them over (a class: no closures per request). */
class AnswerReader implements Dispatcher.DispatchHandler {
  private reused = false;
  private status = 0;
  private retryAfter = 0;
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly socketUse: SocketUse,
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  /** As the request goes out on the socket. */
  onRequestStart(): void {
    this.reused = this.socketUse.answered > 0;
  }

  onResponseStart(_: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    this.status = status;
    this.retryAfter = Number(headers["retry-after"]) || 0;
  }

  onResponseData(_: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.socketUse.answered++;
    this.resolve({ status: this.status, body: Buffer.concat(this.chunks).toString(), retryAfter: this.retryAfter, retriedStaleConnection: false });
  }

  onResponseError(_: Dispatcher.DispatchController, error: Error): void {
    const closedByPeer = CLOSED_BY_PEER.has((error as NodeJS.ErrnoException).code!);
    this.reject(this.reused && closedByPeer ? new StaleConnection("stale keep-alive connection", { cause: error }) : error);
  }
}

class StaleConnection extends Error {}

/** How a socket closed by the server shows: a FIN (undici's "other side closed"), a reset, a broken pipe. */
const CLOSED_BY_PEER = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);
