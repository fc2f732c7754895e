import { listMessagesQuery, sendMessageBody } from "../../../contracts/messages";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const visitorMessages = routes({
  "v1/chat/visitor/messages": {
    POST: {
      summary: "Send a message",
      description: "201 for a new message; 200 with `duplicate: true` for a retry with the same client_id and body.",
      body: sendMessageBody,
      answers: { 201: wire.sentMessage, 200: wire.sentMessage },
      errors: ["note_rejected", "client_id_conflict", "conversation_closed", "not_found", "upload_incomplete"],
    },
    GET: {
      summary: "List messages (and long-poll with `wait`, an extension)",
      description:
        "Public messages with sequence > cursor, ascending. `wait` (0..25 s, a Parley extension) holds the request until one arrives. " +
        "`presence` (a Parley extension: epoch milliseconds, the newest `expires_at` of others' presence entries the client has seen, 0 for none) " +
        "adds the live presence entries to the answer (`presence`), and a held request also answers when one of them is newer than that " +
        "(staff started or stopped typing): one held request for messages and typing. GET /visitor/presence works as before.",
      query: listMessagesQuery,
      answers: { 200: wire.messagePage },
    },
  },
});
