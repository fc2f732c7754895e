import type { PreparedStatement } from "../db/client";
import { drawAllowanceSql } from "../allowance/draw-statement";
import { MESSAGE_CHANNEL, VISITOR_KIND, visibleToVisitorSql } from "../contracts/events";
import { MESSAGE_SQL_COLUMNS } from "./message-view";

// Prepared and run by every widget request: the bench's bare baseline (bench/baseline/server.ts)
// imports these as any caller does, so it runs exactly the service's SQL.

/** Conversation $1's public messages after sequence $2, ascending, at most $3. */
export const PUBLIC_MESSAGES_AFTER: PreparedStatement = {
  name: "public_messages_after",
  text: `
    SELECT ${MESSAGE_SQL_COLUMNS}
    FROM messages m LEFT JOIN members mem ON mem.id = m.member_id
    WHERE m.conversation_id = $1 AND ${visibleToVisitorSql("m")} AND m.sequence > $2
    ORDER BY m.sequence
    LIMIT $3`,
};

/** The seen mark: the highest sequence the list endpoint has sent the visitor (only if it grows). */
export const MARK_VISITOR_SEEN: PreparedStatement = {
  name: "mark_visitor_seen",
  text: `UPDATE conversations SET visitor_seen_sequence = $2 WHERE id = $1 AND visitor_seen_sequence < $2`,
};

/** Why an append stored nothing: conversation $1's status, and its message with client id $2 if any. */
export const CONVERSATION_WITH_CLIENT_ID: PreparedStatement = {
  name: "conversation_with_client_id",
  text: `
    SELECT c.status, c.visitor_name, ${MESSAGE_SQL_COLUMNS}
    FROM conversations c
    LEFT JOIN messages m ON m.conversation_id = c.id AND m.client_id = $2
    LEFT JOIN members mem ON mem.id = m.member_id
    WHERE c.id = $1`,
};

/**
 * Appends message $1 to conversation $2, unless the conversation is missing or closed or client_id
 * $3 is taken (then no row). A visitor's message wakes a snoozed conversation (its trigger writes
 * the `unsnoozed` timeline event, migration 20261128060000). The values: id, conversation id, client id, author type, author id,
 * member id, kind, body, whether files come with it (claimed in the same transaction), its sources
 * (JSON, null for none: a bot's answer carries them from the first moment it exists). A public
 * message takes the next public sequence; a note takes none (the visitor's sequence has no
 * gaps): it keeps the last public sequence and takes the next note
 * number. The UPDATE takes the conversation's row lock, so concurrent appends queue up; the
 * increments and the insert commit or roll back together.
 *
 * Who is told, and when (`signal`):
 * - "on commit" (APPEND_MESSAGE): a public message NOTIFYs long-polls in every process, and the
 *   trigger `messages_inbox` the inbox, both delivered on commit, never on rollback. For a
 *   message with files, the writes inside a caller's transaction, and on PGlite;
 * - "after commit" (APPEND_MESSAGE_SIGNALLED_AFTER): no NOTIFY in the statement's transaction,
 *   which then commits without the notification lock (docs/performance.md); it names its message
 *   in the transaction's `parley.signalled_after_commit` (the trigger then stays silent, migration
 *   20261210004300), and its caller NOTIFYs both once it has returned (append-message.ts).
 */
function appendMessageSql(signal: "on commit" | "after commit"): string {
  const told =
    signal === "on commit"
      ? `CASE WHEN ${visibleToVisitorSql("m")} THEN pg_notify('${MESSAGE_CHANNEL}', m.conversation_id)::text END`
      : `set_config('${SIGNALLED_AFTER_COMMIT}', m.id, true)`;
  return `
    WITH bumped AS (
      UPDATE conversations
      SET last_sequence = last_sequence + CASE WHEN $7 = '${VISITOR_KIND}' THEN 1 ELSE 0 END,
          last_note_number = last_note_number + CASE WHEN $7 = '${VISITOR_KIND}' THEN 0 ELSE 1 END,
          status = CASE WHEN $4 = 'visitor' THEN 'open' ELSE status END,
          snoozed_until = CASE WHEN $4 = 'visitor' THEN NULL ELSE snoozed_until END
      WHERE id = $2 AND status IN ('open', 'snoozed')
        AND NOT EXISTS (SELECT 1 FROM messages WHERE conversation_id = $2 AND client_id = $3)
      RETURNING last_sequence, last_note_number, visitor_name
    ), m AS (
      INSERT INTO messages (id, conversation_id, sequence, note_number, client_id, author_type, author_id, member_id, kind, body, has_attachments, sources)
      SELECT $1, $2, bumped.last_sequence, CASE WHEN $7 = '${VISITOR_KIND}' THEN 0 ELSE bumped.last_note_number END,
             $3, $4, $5, $6, $7, $8, $9, coalesce($10::jsonb, '[]'::jsonb)
      FROM bumped
      RETURNING *
    )
    SELECT ${MESSAGE_SQL_COLUMNS}, bumped.visitor_name, ${told} AS notified
    FROM m CROSS JOIN bumped LEFT JOIN members mem ON mem.id = m.member_id`;
}

// The setting is read by the trigger, which runs at the end of the statement: after the SELECT
// list that sets it was evaluated for the one row.
const SIGNALLED_AFTER_COMMIT = "parley.signalled_after_commit";

export const APPEND_MESSAGE: PreparedStatement = { name: "append_message", text: appendMessageSql("on commit") };
export const APPEND_MESSAGE_SIGNALLED_AFTER: PreparedStatement = { name: "append_message_signalled_after", text: appendMessageSql("after commit") };

/**
 * Starts a batch of conversations of inbox $1 in one statement: draws one unit of its allowance
 * for UTC day $2 per conversation, all or none, and only then inserts the conversations, their
 * visitor tokens and, where a body is given, their first messages (sequence 1). No row means the
 * units did not all fit and nothing was written. The draw locks the inbox's counter for the day
 * until commit (the end of this statement): one lock and one commit for the whole batch, instead
 * of one per start (lib/conversations/start-batches.ts). The other values are arrays, one entry
 * per conversation: id, site id, origin, visitor id, visitor name, visitor email, offline, user
 * id, identity verified, token id, token hash, token expiry, message id, client id, body, and the
 * visitor's context: browser visitor id, time zone, locale, User-Agent, start page URL and title;
 * and the department chosen (a team id; null: the site's default team); the pre-chat form's
 * attribute values and accepted consent (JSON text; null: none).
 */
export const START_CONVERSATIONS: PreparedStatement = {
  name: "start_conversations",
  text: `
    WITH input AS (
      SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::boolean[],
                           $10::text[], $11::boolean[], $12::text[], $13::text[], $14::timestamptz[],
                           $15::text[], $16::text[], $17::text[],
                           $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[],
                           $25::text[], $26::text[])
        AS t(id, site_id, origin, visitor_id, visitor_name, visitor_email, offline, user_id, identity_verified,
             token_id, token_hash, expires_at, message_id, client_id, body,
             browser_visitor_id, timezone, locale, user_agent, start_page_url, start_page_title, team_id, attributes, consent)
    ), drawn AS (${drawAllowanceSql("$1", "$2", "cardinality($3::text[])")}
    ), conversation AS (
      INSERT INTO conversations (id, site_id, inbox_id, origin, visitor_id, visitor_name, visitor_email, offline, user_id, identity_verified, last_sequence,
                                 browser_visitor_id, timezone, locale, user_agent, start_page_url, start_page_title, team_id, attributes, consent)
      SELECT input.id, site_id, $1, origin, visitor_id, visitor_name, visitor_email, offline, user_id, identity_verified,
             CASE WHEN body IS NULL THEN 0 ELSE 1 END,
             browser_visitor_id, timezone, locale, user_agent, start_page_url, start_page_title,
             COALESCE(input.team_id, (SELECT s.default_team_id FROM sites s WHERE s.id = input.site_id)),
             COALESCE(input.attributes::jsonb, '{}'::jsonb), input.consent::jsonb
      FROM input CROSS JOIN drawn
    ), token AS (
      INSERT INTO visitor_tokens (id, hash, conversation_id, origin, expires_at)
      SELECT token_id, token_hash, input.id, origin, expires_at FROM input CROSS JOIN drawn
    ), first_message AS (
      INSERT INTO messages (id, conversation_id, sequence, note_number, client_id, author_type, author_id, kind, body)
      SELECT message_id, input.id, 1, 0, client_id, 'visitor', visitor_id, 'message', body
      FROM input CROSS JOIN drawn WHERE body IS NOT NULL
    )
    SELECT used FROM drawn`,
};
