import net from "node:net";

// A TCP proxy on 127.0.0.1 that a fault test controls. The service is pointed at the proxy
// instead of the real server; the test then breaks the path in two ways networks break:
// - cut():   the server is gone: every open connection is reset and new ones are refused;
// - stall(): a partition: connections stay open but no byte gets through either way (the
//            bytes are held, as a real network holds retransmits, and delivered on restore()).
// - stallNew(): connections already open carry on, new ones are held like stall()'s: a server
//            so busy that a fresh connection's handshake does not finish while old ones answer.

export type ProxyMode = "open" | "cut" | "stall" | "stallNew";

export interface TcpProxy {
  readonly port: number;
  readonly mode: ProxyMode;
  /** Connections accepted since the proxy started. */
  readonly accepted: number;
  cut(): Promise<void>;
  stall(): void;
  stallNew(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** Accepted during stallNew(): held until restore(). */
  held: boolean;
  toUpstream: Buffer[];
  toClient: Buffer[];
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  const state = { mode: "open" as ProxyMode, accepted: 0 };

  const server = net.createServer((client) => {
    state.accepted += 1;
    const upstream = net.connect(target.port, target.host);
    const pair: Pair = { client, upstream, held: state.mode === "stallNew", toUpstream: [], toClient: [] };
    pairs.add(pair);
    const holding = () => state.mode === "stall" || pair.held;
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk) => (holding() ? pair.toUpstream.push(chunk) : upstream.write(chunk)));
    upstream.on("data", (chunk) => (holding() ? pair.toClient.push(chunk) : client.write(chunk)));
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  const destroyAll = () => {
    for (const pair of pairs) {
      // resetAndDestroy sends RST: the client sees ECONNRESET at once, as when a server dies.
      pair.client.resetAndDestroy();
      pair.upstream.destroy();
    }
    pairs.clear();
  };

  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    get mode() {
      return state.mode;
    },
    get accepted() {
      return state.accepted;
    },
    async cut() {
      state.mode = "cut";
      const closed = stopListening();
      destroyAll();
      await closed;
    },
    stall() {
      state.mode = "stall";
    },
    stallNew() {
      state.mode = "stallNew";
    },
    async restore() {
      if (state.mode === "cut") await listen(port);
      state.mode = "open";
      for (const pair of pairs) {
        pair.held = false;
        for (const chunk of pair.toUpstream.splice(0)) pair.upstream.write(chunk);
        for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
      }
    },
    async close() {
      state.mode = "cut";
      const closed = stopListening();
      destroyAll();
      await closed;
    },
  };
}

/**
 * A proxy in front of the service's PostgreSQL: DATABASE_URL is re-pointed at it, so call this
 * before anything opens the database. Undefined when the suite is not running on PostgreSQL.
 */
export async function proxyTheDatabase(onPostgres: boolean): Promise<TcpProxy | undefined> {
  if (!onPostgres) return undefined;
  const direct = new URL(process.env.DATABASE_URL!);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const viaProxy = new URL(direct);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(proxy.port);
  process.env.DATABASE_URL = viaProxy.toString();
  return proxy;
}

/** Whether something accepts TCP connections at host:port (probes optional backends such as Redis). */
export function isReachable(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}
