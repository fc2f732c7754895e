import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { APPEND_MESSAGE, FIND_VISITOR_SESSION, PUBLIC_MESSAGES_AFTER } from "../../lib/hot-statements";

// The bare baseline for `npm run bench`: plain node:http + pg, no Next.js, no Prisma, doing what
// the service does for an idle poll and a send — token hash lookup, origin checks, the same
// prepared statements (lib/hot-statements.ts), the same envelope and headers. The bench divides
// the service's figures by these.

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

interface Session {
  conversation_id: string;
  status: string;
  visitor_id: string;
  visitor_name: string | null;
  last_sequence: number;
}

function reply(response: http.ServerResponse, status: number, origin: string | null, body: unknown): void {
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    Vary: "Origin",
    "X-Request-Id": randomUUID(),
  };
  if (origin) {
    headers["Access-Control-Allow-Origin"] = origin;
    headers["Access-Control-Expose-Headers"] = "Retry-After, X-Request-Id";
  }
  response.writeHead(status, headers).end(JSON.stringify(body));
}

const fail = (code: string) => ({ success: false, result: { code }, message: code });

async function authenticate(request: http.IncomingMessage): Promise<Session | string> {
  const token = /^Bearer (vt_[A-Za-z0-9_-]{43})$/.exec(request.headers.authorization ?? "")?.[1];
  if (!token) return "unauthorized";
  const { rows } = await pool.query({ ...FIND_VISITOR_SESSION, values: [createHash("sha256").update(token).digest("hex")] });
  const row = rows[0];
  if (!row || row.rotated_at) return "unauthorized";
  if (new Date(row.expires_at).getTime() <= Date.now()) return "token_expired";
  if (request.headers.origin !== row.origin) return "origin_mismatch";
  if (!row.origins.includes(row.origin)) return "origin_not_allowed";
  return row;
}

function wireMessage(row: Record<string, any>, visitorName: string | null) {
  return {
    id: row.id,
    sequence: row.sequence,
    conversation_id: row.conversation_id,
    client_id: row.client_id,
    author_id: row.author_id,
    author_type: row.author_type,
    kind: row.kind,
    body: row.body,
    created_at: new Date(row.created_at).toISOString(),
    author_name: row.author_type === "visitor" ? visitorName : (row.member_name ?? null),
    author_avatar: row.member_avatar_tag ? `/api/v1/chat/visitor/avatars/${encodeURIComponent(row.author_id)}` : null,
  };
}

async function listMessages(session: Session, url: URL) {
  const cursor = Number(url.searchParams.get("cursor") ?? 0);
  const limit = Number(url.searchParams.get("limit") ?? 50);
  if (cursor >= session.last_sequence) return { items: [], next_cursor: cursor, has_more: false };
  const { rows } = await pool.query({ ...PUBLIC_MESSAGES_AFTER, values: [session.conversation_id, cursor, limit + 1] });
  const items = rows.slice(0, limit).map((row) => wireMessage(row, session.visitor_name));
  return { items, next_cursor: items.at(-1)?.sequence ?? cursor, has_more: rows.length > limit };
}

async function sendMessage(session: Session, input: { body: string; client_id: string }) {
  const { rows } = await pool.query({
    ...APPEND_MESSAGE,
    values: [randomUUID(), session.conversation_id, input.client_id, "visitor", session.visitor_id, null, "message", input.body.trim()],
  });
  if (rows[0]) return { status: 201, result: { message: wireMessage(rows[0], session.visitor_name), duplicate: false } };
  const existing = await pool.query("SELECT * FROM messages WHERE conversation_id = $1 AND client_id = $2", [
    session.conversation_id,
    input.client_id,
  ]);
  return { status: 200, result: { message: wireMessage(existing.rows[0], session.visitor_name), duplicate: true } };
}

async function readBody(request: http.IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString());
}

const server = http.createServer(async (request, response) => {
  try {
    const url = new URL(request.url ?? "/", "http://baseline");
    if (url.pathname !== "/api/v1/chat/visitor/messages") return reply(response, 404, null, fail("not_found"));
    const session = await authenticate(request);
    if (typeof session === "string") return reply(response, session.startsWith("origin") ? 403 : 401, null, fail(session));
    const origin = request.headers.origin!;
    if (request.method === "GET") {
      return reply(response, 200, origin, { success: true, result: await listMessages(session, url), message: "OK" });
    }
    const sent = await sendMessage(session, await readBody(request));
    return reply(response, sent.status, origin, { success: true, result: sent.result, message: "Message sent." });
  } catch {
    reply(response, 500, null, fail("internal_error"));
  }
});

server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3301), "127.0.0.1");
