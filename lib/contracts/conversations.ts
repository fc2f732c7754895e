import { z } from "zod";
import { clientId, displayName, email, localeTag, requiredText, singleLineOptionalText, singleLineValue, text, timeZone, trimmedText } from "../core/validation/strings";
import { httpUrl } from "./page-views";
import { prechatFields } from "./prechat";

export const MAX_MESSAGE_LENGTH = 4000;
export const MAX_MESSAGE_ATTACHMENTS = 10;

const distinct = (ids: string[]) => new Set(ids).size === ids.length;

/**
 * A message's content: `body`, and `attachments` (1..10 ids of files uploaded into the
 * conversation, decisions.md "Files in chat"), which let the body be empty.
 */
export const messageContent = {
  body: trimmedText(MAX_MESSAGE_LENGTH).default(""),
  attachments: z.array(clientId(64)).min(1).max(MAX_MESSAGE_ATTACHMENTS).refine(distinct, "must not repeat an id").optional(),
};

/** A message says something: a body, or files. */
export const saysSomething = <Value extends { body: string; attachments?: string[] }>(schema: z.ZodType<Value>) =>
  schema.refine((value) => value.body !== "" || value.attachments !== undefined, { path: ["body"], message: "must not be empty without attachments" });

/** POST /widget/{siteID}/conversations: every field optional; `email` is required while the site is offline. */
export const startConversationBody = z
  .strictObject({
    body: requiredText(MAX_MESSAGE_LENGTH).optional(),
    client_id: clientId().optional(),
    name: displayName(80).optional(),
    email: email().optional(),
    // Identity verification (lib/identity): the site's user id and its HMAC under the site's secret.
    user_id: clientId(100).optional(),
    user_hash: singleLineValue(128).optional(),
    // Context for staff (decisions.md, round 3): the browser's visitor id (the page views' id), its
    // time zone and locale, and the page the conversation starts on. They link rows; they grant nothing.
    visitor_id: clientId(100).optional(),
    timezone: timeZone(64).optional(),
    locale: localeTag(35).optional(),
    page_url: httpUrl.optional(),
    page_title: singleLineOptionalText(300).optional(),
    // The department the visitor chose (docs/teams.md): one of the site's `departments`, else 400.
    team_id: clientId(100).optional(),
    // The pre-chat form's answers (docs/attributes.md): name, email or attribute keys, checked
    // against the site's form by the service; `consent`: the visitor ticked the consent box.
    fields: prechatFields.optional(),
    consent: z.boolean().optional(),
  })
  .transform(({ client_id, user_id, user_hash, visitor_id, page_url, page_title, team_id, ...rest }) => ({
    ...rest,
    clientId: client_id,
    userId: user_id,
    userHash: user_hash,
    browserVisitorId: visitor_id,
    pageUrl: page_url,
    pageTitle: page_title,
    teamId: team_id,
  }));

export type StartConversationInput = z.output<typeof startConversationBody>;

/** POST /admin/conversations/{id}/messages: a staff member's message or note. */
export const staffMessageBody = saysSomething(
  z.strictObject({
    author_id: clientId(), // a member id: never NUL (PostgreSQL cannot compare it: a 500)
    ...messageContent,
    kind: z.enum(["message", "note"]).default("message"),
    client_id: clientId().optional(),
  }),
).transform(({ author_id, client_id, ...rest }) => ({ ...rest, authorId: author_id, clientId: client_id }));

/** POST /admin/conversations/{id}/presence. */
export const staffPresenceBody = z
  .strictObject({ actor_id: clientId(), typing: z.boolean() })
  .transform(({ actor_id, typing }) => ({ actorId: actor_id, typing }));

/** POST /widget/{siteID}/history: a verified user's conversations on the site (decisions.md, "Returning visitors"). */
export const conversationHistoryBody = z
  .strictObject({ user_id: clientId(100), user_hash: singleLineValue(128) })
  .transform(({ user_id, user_hash }) => ({ userId: user_id, userHash: user_hash }));
