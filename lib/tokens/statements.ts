import type { PreparedStatement } from "../db/client";

// Prepared and run by every widget request: the bench's bare baseline (bench/baseline/server.ts)
// imports these as any caller does, so it runs exactly the service's SQL.

/** A visitor token's session, by the token's SHA-256 ($1): every visitor request runs it. */
export const FIND_VISITOR_SESSION: PreparedStatement = {
  name: "find_visitor_session",
  text: `
    SELECT t.id AS token_id, t.origin, t.expires_at, t.rotated_at,
           c.id AS conversation_id, c.status, c.visitor_id, c.visitor_name, c.last_sequence,
           s.id AS site_id, s.name AS site_name, s.inbox_id, s.origins, s.offline, s.answers
    FROM visitor_tokens t
    JOIN conversations c ON c.id = t.conversation_id
    JOIN sites s ON s.id = c.site_id
    WHERE t.hash = $1`,
};
