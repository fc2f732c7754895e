import { conversationHistoryBody } from "../../../contracts/conversations";
import * as wire from "../../../contracts/widget-wire";
import { routes } from "../../operation";

// A verified user's history (docs/api.md, "Returning visitors: a verified user's history").

export const widgetHistory = routes({
  "v1/chat/widget/[siteID]/history": {
    POST: {
      summary: "A verified user's conversations on the site, each with a fresh visitor token",
      description:
        "Returning visitors (round 3). `user_id` and `user_hash` as on a start; a wrong pair, or a site without an identity secret, is 403 " +
        "`identity_invalid`. At most 20, newest first; each `visitor_token` is bound to its conversation and to this request's Origin (24 h). " +
        "`last_message` is the newest public message (never a note); `last_said` the newest one somebody wrote (not a closed or reopened line), " +
        "the entry's text in the widget's list. Rate-limited as starts, in the same per-IP bucket.",
      extension: true,
      body: conversationHistoryBody,
      answers: { 200: wire.conversationHistory },
      errors: ["identity_invalid"],
    },
  },
});
