import { z } from "zod";
import { clientId, email } from "../core/validation/strings";
import { named } from "./wire";

// A privacy request (export or erase) names one person in exactly one of three ways
// (decisions.md, round 3): by email (every site), or by the site's verified user id or the
// browser's visitor id on one site.

const FORMS = "send exactly one of {email}, {user_id, site} or {visitor_id, site}";

export const privacyRequestBody = z
  .strictObject({
    email: email().optional(),
    user_id: clientId(100).optional(),
    visitor_id: clientId(100).optional(),
    site: clientId(100).optional(),
  })
  .superRefine((body, context) => {
    const named = (["email", "user_id", "visitor_id"] as const).filter((field) => body[field] !== undefined);
    if (named.length !== 1) {
      for (const field of named.length ? named : (["email"] as const)) context.addIssue({ code: "custom", path: [field], message: FORMS });
      return;
    }
    if (body.email !== undefined && body.site !== undefined) context.addIssue({ code: "custom", path: ["site"], message: "must not be sent with email (an email is matched on every site)" });
    if (body.email === undefined && body.site === undefined) context.addIssue({ code: "custom", path: ["site"], message: `is required with ${named[0]}` });
  })
  .transform((body): PrivacySubject =>
    body.email !== undefined
      ? { kind: "email", email: body.email.toLowerCase() }
      : body.user_id !== undefined
        ? { kind: "user_id", userId: body.user_id, siteId: body.site! }
        : { kind: "visitor_id", visitorId: body.visitor_id!, siteId: body.site! },
  );

export type PrivacySubject =
  | { kind: "email"; email: string }
  | { kind: "user_id"; userId: string; siteId: string }
  | { kind: "visitor_id"; visitorId: string; siteId: string };

/** What an erasure removed, per kind of row (files: the stored bytes of attachments). */
export const erasureCounts = named(
  "ErasureCounts",
  z.object({
  conversations: z.int().min(0),
  messages: z.int().min(0),
  ratings: z.int().min(0),
  tickets: z.int().min(0),
  ticket_replies: z.int().min(0),
  attachments: z.int().min(0).describe("files of messages and tickets: their rows and their stored bytes"),
  page_views: z.int().min(0),
  emails: z.int().min(0),
  webhook_deliveries: z.int().min(0).describe("delivery logs whose payload named an erased conversation or ticket"),
  audit_events: z.int().min(0).describe("audit rows about the email (failed sign-ins, invites), redacted rather than deleted: the log is append-only"),
  }),
);
export type ErasureCounts = z.infer<typeof erasureCounts>;
