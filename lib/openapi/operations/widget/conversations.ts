import { startConversationBody } from "../../../contracts/conversations";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const widgetConversations = routes({
  "v1/chat/widget/[siteID]/conversations": {
    POST: {
      summary: "Start a conversation",
      description: "Issues a visitor token bound to this conversation and to the request's Origin (24 h).",
      body: startConversationBody,
      answers: { 201: wire.startedConversation },
      errors: ["email_required", "identity_invalid", "client_id_conflict", "daily_allowance_exhausted"],
    },
  },
});
