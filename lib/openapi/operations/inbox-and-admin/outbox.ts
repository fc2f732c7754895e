import { z } from "zod";
import { outboxQuery } from "../../../contracts/outbox";
import * as wire from "../../../contracts/notification-wire";
import { routes, type RouteOperations } from "../../operation";
import { ownersOnly, type StaffApi } from "./owners";

// The email outbox (lib/email): the operator API's, and the same services and answers for owners in the inbox.
const outbox = (api: StaffApi): RouteOperations => ({
  [`v1/${api}/outbox`]: {
    GET: {
      summary: `The newest 200 emails, newest first, sent or not (or those in one state)${ownersOnly(api)}`,
      description: "`status`: `not_sent`, `pending` (being sent, no error), `failed` (pending with an SMTP error: retried, and may be resent), `sent` or `suppressed`.",
      extension: true,
      query: outboxQuery,
      answers: { 200: z.array(wire.outboxEmail) },
    },
  },
  [`v1/${api}/outbox/[id]/resend`]: {
    POST: {
      summary: `Send an email again that was not sent or failed${ownersOnly(api)}`,
      description:
        "Only `not_sent` and failed emails: a sent, suppressed (over its recipient's cap) or sending one is 400, and so is any email while SMTP_URL is unset.",
      extension: true,
      answers: { 200: wire.resentEmail },
      errors: ["not_found"],
    },
  },
  [`v1/${api}/outbox/resend`]: {
    POST: {
      summary: `Send again every email not sent or failed (never a suppressed one)${ownersOnly(api)}`,
      description: "400 while SMTP_URL is unset.",
      extension: true,
      answers: { 200: wire.resentEmails },
    },
  },
});

export const outboxOperations = routes({ ...outbox("admin"), ...outbox("inbox") });
