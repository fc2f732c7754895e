import EmailReplyParser from "email-reply-parser";

// What the person wrote, without the quoted history below it or their signature
// (email-reply-parser: docs/notifications.md says why this library). Bounded like a message.

export const MAX_REPLY_LENGTH = 4000;

export function visibleReply(text: string): string {
  const visible = new EmailReplyParser().read(text.replace(/\r\n?/g, "\n")).getVisibleText();
  // What PostgreSQL cannot store, or no one can show honestly (decisions.md "Strings").
  const clean = visible.replace(/\u0000/g, "").toWellFormed().trim();
  return clean.length > MAX_REPLY_LENGTH ? `${clean.slice(0, MAX_REPLY_LENGTH - 1)}…` : clean;
}
