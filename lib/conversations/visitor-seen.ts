import { queryPrepared, type PreparedStatement } from "../db";

// "Seen" (decisions.md): the highest sequence the list endpoint has sent the visitor. Written only
// when a page carried messages and only if it grows — idle polls never write.

const MARK_SEEN: PreparedStatement = {
  name: "mark_visitor_seen",
  text: `UPDATE conversations SET visitor_seen_sequence = $2 WHERE id = $1 AND visitor_seen_sequence < $2`,
};

export async function markVisitorSeen(conversationId: string, sequence: number): Promise<void> {
  await queryPrepared(MARK_SEEN, [conversationId, sequence]);
}
