import { emailSuppressionPage, removedSuppression, suppressionQuery } from "../../../contracts/suppressions";
import { routes } from "../../operation";

export const inboxEmailSuppressions = routes({
  "v1/inbox/email-suppressions": {
    GET: {
      summary: "The suppression list, newest first (owners)",
      description:
        "Addresses the automatic emails (ticket acknowledgements, visitor follow-ups) are kept from: `unsubscribe` (one site), `hard_bounce` and `complaint` (every site; from delivery reports to the bounce address). `reason` and `site` filter exactly, `q` is part of the address (without case); `cursor` is the previous page's `next_cursor`.",
      extension: true,
      query: suppressionQuery,
      answers: { 200: emailSuppressionPage },
    },
  },
  "v1/inbox/email-suppressions/[id]": {
    DELETE: {
      summary: "Remove an address from the suppression list (owners; audited)",
      description: "The automatic emails reach the address again. A bounce or complaint that comes back adds it again.",
      extension: true,
      answers: { 200: removedSuppression },
      errors: ["not_found"],
    },
  },
});
