import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Redis from "ioredis";

// A stand-in for Upstash's REST endpoint that runs each command on a real Redis: POST / with a
// JSON command array, POST /pipeline and /multi-exec with an array of them, Bearer auth, and the
// `Upstash-Encoding: base64` answers @upstash/redis asks for. `mode` lets tests make it fail.
// Upstash accepts a Lua shebang flag of its own (`allow-key-locking`, used by @upstash/ratelimit)
// that Redis refuses, so scripts lose it on the way, and EVALSHA is mapped to the edited script.

export type UpstashMode = "normal" | "down" | "slow";

export interface UpstashRestServer {
  url: string;
  token: string;
  redis: Redis;
  /** How many commands reached Redis. */
  commands: number;
  /** Requests held unanswered by the slow mode now (they go on when the mode changes). */
  held: number;
  mode: UpstashMode;
  close(): Promise<void>;
}

type Command = [string, ...(string | number)[]];
type Outcome = { result: unknown } | { error: string };

export async function startUpstashRestServer(options: { token?: string; redisUrl?: string; slowMs?: number } = {}): Promise<UpstashRestServer> {
  const token = options.token ?? "upstash-test-token";
  const redis = new Redis(options.redisUrl ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
  const state = { commands: 0, mode: "normal" as UpstashMode, held: 0 };
  // The slow mode holds each request until the mode changes (or slowMs, when given), so "cut at the
  // timeout" is seen as an answer while Upstash's is still pending, however slow the machine.
  let release = () => {};
  let released = new Promise<void>((resolve) => (release = resolve));

  const editedSha = new Map<string, string>();
  const translate = ([name, ...rawArgs]: Command): [string, ...string[]] => {
    const command = String(name).toLowerCase();
    const args = rawArgs.map(String);
    if ((command === "eval" || (command === "script" && args[0]?.toLowerCase() === "load")) && args.length > 0) {
      const at = command === "eval" ? 0 : 1;
      const edited = withoutUpstashFlags(args[at]!);
      editedSha.set(sha1(args[at]!), sha1(edited));
      args[at] = edited;
    }
    if (command === "evalsha" && args[0]) args[0] = editedSha.get(args[0]) ?? args[0];
    return [command, ...args];
  };

  const run = async (command: Command): Promise<Outcome> => {
    state.commands += 1;
    const [name, ...args] = translate(command);
    try {
      const result = await redis.call(name, ...args);
      // SCRIPT LOAD answers with the hash of the script the client sent.
      if (name === "script" && args[0]?.toLowerCase() === "load") return { result: [...editedSha].find(([, edited]) => edited === result)?.[0] ?? result };
      return { result };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };

  const server = createServer(async (request, response) => {
    if (state.mode === "down") return void request.socket.destroy();
    if (state.mode === "slow") {
      state.held += 1;
      await Promise.race([released, ...(options.slowMs ? [new Promise((resolve) => setTimeout(resolve, options.slowMs))] : [])]);
      state.held -= 1;
    }
    if (request.headers.authorization !== `Bearer ${token}`) return send(response, 401, { error: "Unauthorized" });
    const base64 = String(request.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      return send(response, 400, { error: "ERR failed to parse command" });
    }
    const path = new URL(request.url ?? "/", "http://upstash").pathname;
    if (path === "/") {
      const outcome = await run(body as Command);
      return send(response, "error" in outcome ? 400 : 200, encodeOutcome(outcome, base64));
    }
    if (path === "/pipeline") {
      const outcomes: Outcome[] = [];
      for (const command of body as Command[]) outcomes.push(await run(command));
      return send(response, 200, outcomes.map((outcome) => encodeOutcome(outcome, base64)));
    }
    if (path === "/multi-exec") {
      const commands = body as Command[];
      state.commands += commands.length;
      const results = (await redis.multi(commands.map((command) => ["call", ...translate(command)])).exec()) ?? [];
      return send(response, 200, results.map(([error, result]) => encodeOutcome(error ? { error: error.message } : { result }, base64)));
    }
    send(response, 404, { error: "ERR unknown endpoint" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    redis,
    get commands() {
      return state.commands;
    },
    get mode() {
      return state.mode;
    },
    get held() {
      return state.held;
    },
    set mode(mode: UpstashMode) {
      state.mode = mode;
      release();
      released = new Promise<void>((resolve) => (release = resolve));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit();
    },
  };
}

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

function withoutUpstashFlags(script: string): string {
  return script.replace(/^(\s*#!lua)([^\n]*)/, (_line, shebang: string, rest: string) => {
    const flags = /flags=(\S*)/.exec(rest)?.[1]?.split(",").filter((flag) => flag && flag !== "allow-key-locking") ?? [];
    return flags.length > 0 ? `${shebang} flags=${flags.join(",")}` : shebang;
  });
}

function encodeOutcome(outcome: Outcome, base64: boolean): Outcome {
  return "error" in outcome || !base64 ? outcome : { result: encode(outcome.result) };
}

function encode(value: unknown): unknown {
  if (typeof value === "string") return Buffer.from(value, "utf8").toString("base64");
  if (Array.isArray(value)) return value.map(encode);
  return value;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
}
