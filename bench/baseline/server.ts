import { randomUUID } from "node:crypto";
import http from "node:http";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { PreparedStatement } from "../../lib/db/client";
import { isUniqueViolation } from "../../lib/db/errors";
import { APPEND_MESSAGE_SIGNALLED_AFTER, CONVERSATION_WITH_CLIENT_ID, MARK_VISITOR_SEEN, PUBLIC_MESSAGES_AFTER } from "../../lib/conversations/statements";
import { FIND_VISITOR_SESSION } from "../../lib/tokens/statements";
import { AppError } from "../../lib/core/errors";
import { checkJsonContentType, MAX_BODY_BYTES, parseJsonBytes, parseWith, readQuery } from "../../lib/http/input";
import { appErrorBody } from "../../lib/http/respond";
import { API_HEADERS, errorBody, JSON_CONTENT_TYPE, successBody } from "../../lib/http/wire.mjs";
import { appendValues, explainFound, type ConversationWithClientId } from "../../lib/conversations/append-message";
import { fromMessageSqlRow, toWireMessage, type MessageSqlRow } from "../../lib/conversations/message-view";
import { listMessagesQuery, sendMessageBody } from "../../lib/contracts/messages";
import { emptyPage, pageOf, visitorMessage } from "../../lib/conversations/visitor-messages";
import { bearerTokenHash, sessionFromRow, visitorOriginError, type SessionRow } from "../../lib/tokens/visitor-token";

// The bare baseline for `npm run bench`: what the service does for an idle poll, a short poll and
// a send — the same prepared statements (the entities' `statements.ts`), the same rules (token, Origin,
// validation with the routes' zod schemas, duplicate and 409), the same envelope and status codes
// — on plain node:http and pg: no Next.js, no Prisma, no Web Request/Response, no pipeline. The
// bench divides the service's figures by these; tests/integration/bench-baseline.test.ts proves
// both answer alike. Not served: long-polls (`wait`), CORS preflights, rate limits.

/** Runs a prepared statement: the baseline's own pg pool, or in the test the service's database. */
export type Run = <Row>(statement: PreparedStatement, values: unknown[]) => Promise<Row[]>;

export function createBaseline(run: Run): http.Server {
  return http.createServer(async (request, response) => {
    const origin = request.headers.origin ?? null;
    let allowOrigin: string | null = null;
    const reply = (status: number, body: string) => {
      const headers: Record<string, string> = { ...API_HEADERS, "Content-Type": JSON_CONTENT_TYPE, Vary: "Origin", "X-Request-Id": randomUUID() };
      if (allowOrigin) {
        headers["Access-Control-Allow-Origin"] = allowOrigin;
        headers["Access-Control-Expose-Headers"] = "Retry-After, X-Request-Id";
      }
      response.writeHead(status, headers).end(body);
    };
    try {
      const url = new URL(request.url ?? "/", "http://baseline");
      if (url.pathname !== "/api/v1/chat/visitor/messages" || (request.method !== "GET" && request.method !== "POST")) {
        throw new AppError("not_found", "Not served by the baseline.");
      }
      const hash = bearerTokenHash(request.headers.authorization ?? null);
      const lookedUpAt = performance.now();
      const [row] = await run<SessionRow>(FIND_VISITOR_SESSION, [hash]);
      const visitor = sessionFromRow(row, lookedUpAt);
      const originError = visitorOriginError(visitor, origin);
      if (originError) throw originError;
      allowOrigin = origin;
      if (request.method === "GET") {
        const page = parseWith(listMessagesQuery, readQuery(url.searchParams), "query");
        if (page.cursor >= visitor.conversation.lastSequence) return reply(200, successBody({ result: emptyPage(page.cursor), message: "OK" }));
        const rows = await run<MessageSqlRow>(PUBLIC_MESSAGES_AFTER, [visitor.conversation.id, page.cursor, page.limit + 1]);
        const read = pageOf(rows, visitor, page);
        if (read.items.length > 0) await run(MARK_VISITOR_SEEN, [visitor.conversation.id, read.items.at(-1)!.sequence]);
        return reply(200, successBody({ result: read, message: "OK" }));
      }
      checkJsonContentType(request.headers["content-type"] ?? null);
      const message = visitorMessage(visitor, parseWith(sendMessageBody, parseJsonBytes(await readBody(request)), "body"));
      // The service's hot append, which commits without NOTIFY (its process NOTIFYs after, coalesced;
      // no one here listens, so the baseline sends none).
      const [stored] = await run<MessageSqlRow & { visitor_name: string | null }>(APPEND_MESSAGE_SIGNALLED_AFTER, appendValues(message)).catch((error: unknown) => {
        if (isUniqueViolation(error)) return []; // a replay committed while this one waited
        throw error;
      });
      if (stored) {
        const result = { message: toWireMessage(fromMessageSqlRow(stored), stored.visitor_name), duplicate: false };
        return reply(201, successBody({ result, message: "Message sent." }));
      }
      const [found] = await run<ConversationWithClientId>(CONVERSATION_WITH_CLIENT_ID, [message.conversationId, message.clientId]);
      return reply(200, successBody({ result: explainFound(found, message, toWireMessage), message: "Already received." }));
    } catch (error) {
      if (error instanceof AppError) return reply(error.status, appErrorBody(error));
      reply(500, errorBody("internal_error", "An unexpected error occurred."));
    }
  });
}

async function readBody(request: http.IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    total += (chunk as Buffer).length;
    if (total > MAX_BODY_BYTES) throw new AppError("invalid_request", `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  const run: Run = async (statement, values) => (await pool.query({ ...statement, values })).rows;
  const server = createBaseline(run);
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT ?? 3301), "127.0.0.1");
  process.once("SIGTERM", () => process.exit(0)); // an exit, so that --cpu-prof writes its profile
}
