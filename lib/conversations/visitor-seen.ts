import { queryPrepared } from "../db/client";
import { MARK_VISITOR_SEEN } from "./statements";

// "Seen" (decisions.md): the highest sequence the list endpoint has sent the visitor. Written only
// when a page carried messages and only if it grows — idle polls never write.

export async function markVisitorSeen(conversationId: string, sequence: number): Promise<void> {
  await queryPrepared(MARK_VISITOR_SEEN, [conversationId, sequence]);
}
