// The NOTIFY channels' names and payloads: a contract between the SQL that sends (the entities'
// statements) and the listener that hears (lib/realtime/).

/**
 * The NOTIFY channel of the long-poll's wake-ups (lib/realtime): "a public message arrived in
 * conversation <payload>", or, with PRESENCE_PAYLOAD_PREFIX before the id, "a staff member's
 * typing presence changed in conversation <id>".
 */
export const MESSAGE_CHANNEL = "parley_messages";

/** Conversation ids never contain a colon, so a message's payload never starts with this. */
export const PRESENCE_PAYLOAD_PREFIX = "p:";

/** The NOTIFY channel of the inbox's live updates (its triggers, migration 20261123020000) and of ended sessions. */
export const INBOX_CHANNEL = "parley_inbox";
