import * as wire from "../../../contracts/notification-wire";
import { routes } from "../../operation";

// The unsubscribe link (app/api/v1/email/unsubscribe) is not in the document: it answers HTML
// pages for people and mail clients, not the JSON envelope, and its GET and POST are not
// route-family handlers (the coverage test in tests/contract/openapi.test.ts skips them).
export const inboundEmail = routes({
  "v1/inbound/email": {
    POST: {
      summary: "Receive an email forwarded as raw MIME (replies by email)",
      description:
        "For providers that forward inbound mail as it was received (message/rfc822, at most 25 MB). The answer says what became of it; a refusal is a 200 too, so the provider does not retry it.",
      extension: true,
      rawBody: ["message/rfc822"],
      answers: { 200: wire.inboundEmailOutcome },
      errors: ["payload_too_large"],
    },
  },
});
