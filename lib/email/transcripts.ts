import { env } from "../core/env";
import { AppError } from "../core/errors";
import { db, sqlExecutor } from "../db/client";
import { siteUnsubscribe } from "./links/unsubscribe-links";
import { storeEmails } from "./sending/outbox";
import { renderEmail } from "./templates";
import { conversationLanguage } from "../conversations/notices";
import { TRANSCRIPT_WORDS } from "./transcript-words";

// "Email me the transcript" (decisions.md, round 3, "Email in both directions"; docs/notifications.md
// "Transcripts"): the conversation's public messages, visitor's and staff's, to the visitor's email.
// Never a note (an unverified emailed reply is one). A capped automatic kind, so the recipient caps
// and the suppression list hold; answerable (Reply-To) like a follow-up (reply-headers.ts). Asking
// again with nothing new said stores nothing: the claim below records up to which message the last
// transcript went, in the same transaction as the email. At most TRANSCRIPTS_PER_DAY are stored.

/** The newest messages a transcript carries; older ones are only counted, so one email stays bounded. */
export const TRANSCRIPT_MESSAGES = 500;

/**
 * Transcripts one conversation may store in 24 hours, suppressed ones included: the visitor rate
 * limit alone would let a visitor who writes and asks again store one full copy per message.
 */
export const TRANSCRIPTS_PER_DAY = 5;

const CLAIM = `
  INSERT INTO "visitor_follow_ups" ("conversation_id", "transcript_sequence") VALUES ($1, $2)
  ON CONFLICT ("conversation_id") DO UPDATE SET "transcript_sequence" = $2
   WHERE "visitor_follow_ups"."transcript_sequence" IS NULL OR "visitor_follow_ups"."transcript_sequence" < $2
  RETURNING 1 AS claimed`;

// Read after the claim, which holds the conversation's row until the commit: a request at the same
// time waits for it and then counts what it stored. `oldest` is the one whose 24 h must pass first.
const STORED_TODAY = `
  SELECT count(*)::int AS "stored", min(t."created_at") AS "oldest"
    FROM (SELECT "created_at" FROM "emails"
           WHERE "conversation_id" = $1 AND "kind" = 'visitor_transcript' AND "created_at" > now() - interval '24 hours'
           ORDER BY "created_at" DESC LIMIT ${TRANSCRIPTS_PER_DAY}) t`;

// A transcript that goes (not suppressed) carries every staff reply up to `upTo`: the follow-ups
// (follow-ups.ts) count those as emailed, so the next one carries only newer replies.
const MARK_REPLIES_EMAILED = `
  UPDATE "visitor_follow_ups" SET "emailed_sequence" = $2
   WHERE "conversation_id" = $1 AND "emailed_sequence" < $2
     AND EXISTS (SELECT 1 FROM "emails" WHERE "id" = $3 AND "status" <> 'suppressed')`;

const DAY_MS = 86_400_000;

function tooManyToday(oldest: Date | string): AppError {
  const retryAfter = Math.max(1, Math.ceil((new Date(oldest).getTime() + DAY_MS - Date.now()) / 1000));
  return new AppError("rate_limited", `This conversation was emailed ${TRANSCRIPTS_PER_DAY} times today. Please try again later.`, { retryAfter });
}

/** A message's time as the visitor reads it: their time zone when the widget told us, else UTC. */
function timeIn(timeZone: string | null): (at: Date) => string {
  const options = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" } as const;
  try {
    return new Intl.DateTimeFormat("en-GB", { ...options, timeZone: timeZone ?? "UTC" }).format;
  } catch {
    return new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" }).format;
  }
}

/** Queues the transcript email (or nothing, when the last one already covered every message). */
export async function emailTranscript(conversationId: string): Promise<{ queued: true }> {
  const prisma = await db();
  const conversation = await prisma.conversation.findUnique({
    where: { id: conversationId },
    select: { siteId: true, visitorEmail: true, visitorName: true, lastSequence: true, timezone: true, locale: true, site: { select: { title: true, locale: true } } },
  });
  if (!conversation) throw new AppError("conversation_not_found", "No conversation has this identifier.");
  const recipient = conversation.visitorEmail;
  if (!recipient) throw new AppError("email_required", "This conversation has no email address to send the transcript to.");

  const where = { conversationId, kind: "message", authorType: { in: ["visitor", "staff"] }, sequence: { lte: conversation.lastSequence } };
  const [messages, total] = await Promise.all([
    prisma.message.findMany({
      where,
      orderBy: { sequence: "desc" },
      take: TRANSCRIPT_MESSAGES,
      include: { member: { select: { name: true } }, attachments: { select: { name: true, bytes: true }, orderBy: { position: "asc" } } },
    }),
    prisma.message.count({ where }),
  ]);
  // What "said" means for asking again: the newest message carried (a close or reopen says nothing).
  const upTo = messages[0]?.sequence ?? 0;
  const words = TRANSCRIPT_WORDS[conversationLanguage(conversation.site.locale, conversation.locale)];
  const siteName = conversation.site.title ?? words.team;
  const visitorName = conversation.visitorName ?? words.you;
  const time = timeIn(conversation.timezone);
  const left = total - messages.length;
  const unsubscribe = await siteUnsubscribe(recipient);
  const content = renderEmail({
    subject: words.subject(siteName),
    siteName,
    intro:
      words.intro(siteName, conversation.visitorName) +
      (left > 0 ? words.earlier(left) : "") +
      // Only with reply addresses does an answer reach the conversation (reply-headers.ts).
      (env().MAIL_REPLY_DOMAIN ? words.replyHint : ""),
    quotes: messages.reverse().map((message) => ({
      author: `${message.authorType === "staff" ? (message.member?.name ?? siteName) : visitorName}, ${time(message.createdAt)}`,
      body: message.body,
      files: message.attachments,
    })),
    footer: words.footer(siteName),
    unsubscribeUrl: unsubscribe.url,
  });

  await (await sqlExecutor()).transaction(async (sql) => {
    const { rows } = await sql.executeSql(CLAIM, [conversationId, upTo]);
    if (rows.length === 0) return; // the last transcript already carried every message
    const { rows: today } = await sql.executeSql(STORED_TODAY, [conversationId]);
    const { stored, oldest } = today[0] as { stored: number; oldest: Date | string | null };
    if (stored >= TRANSCRIPTS_PER_DAY && oldest) throw tooManyToday(oldest); // rolls the claim back
    const jobs = await storeEmails(sql, [
      { ...content, ...unsubscribe.draft, kind: "visitor_transcript", recipient, siteId: conversation.siteId, conversationId },
    ]);
    await sql.executeSql(MARK_REPLIES_EMAILED, [conversationId, upTo, unsubscribe.draft.id]);
    // Sent by the dispatcher's `email.send` consumer, like every email stored outside it (resend.ts).
    for (const job of jobs) {
      await sql.executeSql(`INSERT INTO "notification_events" ("type", "subject_id") VALUES ('email.send', $1)`, [(job.data as { emailId: string }).emailId]);
    }
  });
  return { queued: true };
}
