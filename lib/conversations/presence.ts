import { queryPrepared, type PreparedStatement } from "../db/client";
import { isEmbeddedDatabase } from "../core/env";
import type { Member, Presence } from "../generated/prisma/client";
import { MESSAGE_CHANNEL, PRESENCE_PAYLOAD_PREFIX } from "../contracts/events";
import { signalPresence } from "../realtime/message-signals";
import type { OuterJoined, SqlRow } from "../core/sql-row";

// Typing presence: an entry per actor and conversation, alive for 10 s after it was last set.

export const PRESENCE_TTL_MS = 10_000;

export interface PresenceActor {
  conversationId: string;
  actorId: string;
  authorType: "visitor" | "staff";
}

// Both statements are prepared: a widget with its panel open reads presence with each long-poll
// answer (or every 3 s through GET /visitor/presence), and writes its own while the visitor types.
// A staff member's entry also NOTIFYs long-polls in every process that their typing changed
// (delivered on commit, so only a stored entry wakes anyone); a visitor's wakes no one — the
// visitor's own poll never shows it, and staff see it by reading.
export const UPSERT_PRESENCE: PreparedStatement = {
  name: "upsert_presence_notify",
  text: `
    INSERT INTO presence (conversation_id, actor_id, author_type, typing, expires_at) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (conversation_id, actor_id)
    DO UPDATE SET author_type = EXCLUDED.author_type, typing = EXCLUDED.typing, expires_at = EXCLUDED.expires_at
    RETURNING CASE WHEN author_type = 'staff'
                   THEN pg_notify('${MESSAGE_CHANNEL}', '${PRESENCE_PAYLOAD_PREFIX}' || conversation_id)::text END AS notified`,
};

// Ends a typing without the NOTIFY: a typing that ends with the message it was typing, whose own
// wake-up tells of both (staff-commands.ts `sendEndingTyping`). Only a typing that exists is ended
// (an upsert would trip the foreign key for a conversation that does not exist, before its 404).
const END_TYPING_QUIETLY: PreparedStatement = {
  name: "end_typing_quietly",
  text: `
    UPDATE presence SET typing = false, expires_at = $3
    WHERE conversation_id = $1 AND actor_id = $2 AND typing
    RETURNING 1 AS ended`,
};

// author_name (an extension of the spec's entry): the staff member's name, so the widget can say
// who is typing before that member has written anything.
const LIVE_PRESENCE: PreparedStatement = {
  name: "live_presence_named",
  text: `
    SELECT p.conversation_id, p.actor_id, p.author_type, p.typing, p.expires_at, m.name AS author_name
    FROM presence p
    LEFT JOIN members m ON p.author_type = 'staff' AND m.id = p.actor_id
    WHERE p.conversation_id = $1 AND p.actor_id <> $2 AND p.expires_at > $3
    ORDER BY p.actor_id`,
};

type PresenceRow = SqlRow<Presence, "conversation_id" | "actor_id" | "author_type" | "typing" | "expires_at"> &
  OuterJoined<SqlRow<Member, never, { author_name: "name" }>>;

export async function setPresence(actor: PresenceActor, typing: boolean): Promise<void> {
  const expiresAt = new Date(Date.now() + PRESENCE_TTL_MS);
  await queryPrepared(UPSERT_PRESENCE, [actor.conversationId, actor.actorId, actor.authorType, typing, expiresAt]);
  // Embedded mode has no NOTIFY listener: wake this process's long-polls once committed.
  if (actor.authorType === "staff" && isEmbeddedDatabase()) signalPresence(actor.conversationId);
}

/** Records that the actor stopped typing, waking no one: the caller's next write (a message) does. Whether a typing ended. */
export async function endTypingQuietly(actor: PresenceActor): Promise<boolean> {
  const ended = await queryPrepared<{ ended: number }>(END_TYPING_QUIETLY, [actor.conversationId, actor.actorId, new Date(Date.now() + PRESENCE_TTL_MS)]);
  return ended.length > 0;
}

export type PresenceEntry = Awaited<ReturnType<typeof livePresence>>[number];

/** Live entries of everyone in the conversation except `viewerId`. */
export async function livePresence(conversationId: string, viewerId: string) {
  const rows = await queryPrepared<PresenceRow>(LIVE_PRESENCE, [conversationId, viewerId, new Date()]);
  return rows.map((row) => ({ ...row, expires_at: row.expires_at.toISOString() }));
}
