import { randomUUID } from "node:crypto";
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import { db } from "../../db/client";
import { env } from "../../core/env";
import { AppError } from "../../core/errors";
import { appendMessage } from "../../conversations/append-message";
import { reopenConversation } from "../../conversations/conversation-status";
import { sendStaffMessage } from "../../conversations/staff-commands";
import { appendFilerReply } from "../../tickets/ticket-replies";
import { verifyReplyToken, type ReplyBinding } from "../links/reply-token";
import { autoReplyReason } from "./auto-reply";
import { judgeBounce } from "./bounces";
import { dmarcVerdict, type Envelope } from "./authenticate";
import { skippedLine, storeEmailedFiles, unattached, type SkippedFile } from "./email-attachments";
import { claimInbound, messageKey, recordInbound, releaseInbound, type Judged, type Via } from "./inbound-record";
import { visibleReply } from "./reply-text";

// The inbound pipeline (decisions.md "Email in both directions"), the same for the SMTP listener
// and the provider route: parse → one claim per Message-ID → a report to a bounce address judged
// (bounces.ts; before the next step, which would ignore it as automatic) → automatic mail ignored → the reply
// address found and its token verified → the sender is the bound recipient → DMARC → the reply,
// without its quoted history, lands where the token says. Anything else is refused, logged and
// counted (inbound-record.ts); nothing is ever answered by email (no backscatter).

/** The size cap of one inbound email (decisions.md), for the listener and the route alike. */
export const MAX_INBOUND_BYTES = 25 * 1024 * 1024;
/** How much of a refused body the route still reads (and drops) so that its sender reads the answer; past it, the connection is cut. */
export const INBOUND_DISCARD_BYTES = 2 * MAX_INBOUND_BYTES;

export interface InboundEnvelope extends Envelope {
  via: Via;
  /** RCPT TO (SMTP); forwarded emails are read for their To, Cc, Delivered-To and X-Original-To. */
  rcptTo?: string[];
}

export interface InboundAnswer {
  outcome: Judged["outcome"];
  reason: string | null;
  conversation_id: string | null;
  ticket_id: string | null;
  skipped_files: SkippedFile[];
}

interface Bound {
  binding: ReplyBinding;
  /** The address the email was sent to: only it may answer. */
  address: string;
  conversation?: { id: string; status: string; visitorId: string };
}

const refused = (reason: string, where: Partial<Judged> = {}): Judged => ({ outcome: "refused", reason, ...where });

export async function receiveInboundEmail(raw: Buffer, envelope: InboundEnvelope): Promise<InboundAnswer> {
  if (raw.byteLength > MAX_INBOUND_BYTES) throw new AppError("payload_too_large", `An email may be at most ${MAX_INBOUND_BYTES} bytes.`);
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, keepDeliveryStatus: true });
  const claim = await claimInbound(messageKey(parsed.messageId), envelope.via);
  if (claim === null) return answer({ outcome: "ignored", reason: "duplicate" }, []);
  try {
    const skipped: SkippedFile[] = [];
    const judged = await judge(raw, parsed, envelope, skipped);
    await recordInbound(claim, envelope.via, judged);
    return answer(judged, skipped);
  } catch (error) {
    await releaseInbound(claim).catch(() => {});
    throw error;
  }
}

const answer = (judged: Judged, skipped: SkippedFile[]): InboundAnswer => ({
  outcome: judged.outcome,
  reason: judged.reason,
  conversation_id: judged.conversationId ?? null,
  ticket_id: judged.ticketId ?? null,
  skipped_files: skipped,
});

async function judge(raw: Buffer, parsed: ParsedMail, envelope: InboundEnvelope, skipped: SkippedFile[]): Promise<Judged> {
  const domain = env().MAIL_REPLY_DOMAIN;
  const bounceTokens = domain ? addressTokens(parsed, envelope, domain, "b+") : [];
  if (bounceTokens.length > 0) return judgeBounce(parsed, bounceTokens);

  const returnPath = envelope.via === "smtp" ? envelope.mailFrom : returnPathHeader(parsed);
  const automatic = autoReplyReason(parsed.headers, returnPath);
  if (automatic) return { outcome: "ignored", reason: automatic };

  if (!domain) return refused("replies_off");
  const tokens = addressTokens(parsed, envelope, domain, "r+");
  if (tokens.length === 0) return refused("no_reply_address");
  if (tokens.length > 1) return refused("several_reply_addresses");
  const binding = await verifyReplyToken(tokens[0]!);
  if (!binding) return refused("invalid_token");
  const where = binding.thread.kind === "conversation" ? { conversationId: binding.thread.id } : { ticketId: binding.thread.id };

  const bound = await boundRecipient(binding);
  if (!bound) return refused("recipient_unknown", where);
  const from = senderAddresses(parsed);
  if (from.length !== 1 || from[0] !== bound.address) return refused("sender_mismatch", where);
  if (envelope.mailFrom && envelope.mailFrom.trim().toLowerCase() !== bound.address) return refused("envelope_sender_mismatch", where);

  const verified = (await dmarcVerdict(raw, envelope, domain)) !== "fail";
  if (!verified && binding.recipient.kind === "member") return refused("dmarc_fail", where);

  const text = visibleReply(parsed.text ?? "");
  if (binding.thread.kind === "ticket") {
    if (binding.recipient.kind === "member") return refused("recipient_unknown", where);
    skipped.push(...unattached(parsed.attachments, "ticket_thread"));
    const body = withSkipped(text, skipped);
    if (body === "") return { outcome: "ignored", reason: "empty", ...where };
    await appendFilerReply(binding.thread.id, verified ? body : `[Unverified email: DMARC failed]\n\n${body}`);
    return verified ? { outcome: "accepted", reason: null, ...where } : { outcome: "unverified", reason: "dmarc_fail", ...where };
  }

  const conversation = bound.conversation!;
  const clientId = `email_${messageKey(parsed.messageId) ?? randomUUID()}`.slice(0, 100);
  if (!verified) {
    skipped.push(...unattached(parsed.attachments, "unverified"));
    const note = `[Unverified email from the visitor: DMARC failed for ${bound.address}]\n\n${withSkipped(text, skipped)}`;
    await appendMessage({ conversationId: conversation.id, authorType: "system", authorId: "email", kind: "note", body: note.slice(0, 4000), clientId });
    return { outcome: "unverified", reason: "dmarc_fail", ...where };
  }

  const uploader = binding.recipient.kind === "member" ? "staff" : "visitor";
  const files = await storeEmailedFiles(conversation.id, uploader, parsed.attachments);
  skipped.push(...files.skipped);
  const body = withSkipped(text, files.skipped);
  if (body === "" && files.ids.length === 0) return { outcome: "ignored", reason: "empty", ...where };
  const attachments = files.ids.length > 0 ? files.ids : undefined;

  if (binding.recipient.kind === "member") {
    if (conversation.status === "closed") return refused("conversation_closed", where);
    await sendStaffMessage(binding.recipient.id, conversation.id, { body, kind: "message", clientId, attachments });
    return { outcome: "accepted", reason: null, ...where };
  }
  // A visitor's emailed reply reopens a closed conversation: they are answering it.
  if (conversation.status === "closed") await reopenConversation(conversation.id);
  await appendMessage({
    conversationId: conversation.id,
    authorType: "visitor",
    authorId: conversation.visitorId,
    kind: "message",
    body,
    clientId,
    attachmentIds: attachments,
  });
  return { outcome: "accepted", reason: null, ...where };
}

const withSkipped = (text: string, skipped: SkippedFile[]) => [text, ...skipped.map(skippedLine)].filter(Boolean).join("\n\n").slice(0, 4000);

function returnPathHeader(parsed: ParsedMail): string | null | undefined {
  const value = parsed.headers.get("return-path");
  if (value === undefined) return undefined;
  const text = typeof value === "object" && value !== null && "text" in value ? String((value as AddressObject).text) : String(value);
  return text.replace(/[<>\s]/g, "") === "" ? null : text;
}

const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value.flatMap((entry) => (entry.address ? [entry.address] : [])));

function headerStrings(parsed: ParsedMail, name: string): string[] {
  const value = parsed.headers.get(name);
  return value === undefined ? [] : [String(typeof value === "object" && value !== null && "text" in value ? value.text : value)];
}

/** The distinct tokens of `<prefix><token>@<domain>` among the recipients (`r+` replies, `b+` bounces). */
function addressTokens(parsed: ParsedMail, envelope: InboundEnvelope, domain: string, prefix: "r+" | "b+"): string[] {
  const candidates = envelope.rcptTo ?? [
    ...addressesOf(parsed.to),
    ...addressesOf(parsed.cc),
    ...headerStrings(parsed, "delivered-to"),
    ...headerStrings(parsed, "x-original-to"),
  ];
  const tokens = new Set<string>();
  for (const candidate of candidates) {
    const address = candidate.trim().replace(/^<|>$/g, "").toLowerCase();
    const at = address.lastIndexOf("@");
    if (at === -1 || address.slice(at + 1) !== domain) continue;
    const local = address.slice(0, at);
    if (local.startsWith(prefix) && local.length > prefix.length) tokens.add(local.slice(prefix.length));
  }
  return [...tokens];
}

const senderAddresses = (parsed: ParsedMail) => addressesOf(parsed.from).map((address) => address.trim().toLowerCase());

/** Where the token points, and the address it was sent to now (a member who left, or an email removed, answers nothing). */
async function boundRecipient(binding: ReplyBinding): Promise<Bound | null> {
  const prisma = await db();
  const lower = (address: string | null | undefined) => address?.trim().toLowerCase() || null;
  let visitorAddress: string | null = null;
  let conversation: Bound["conversation"];
  if (binding.thread.kind === "conversation") {
    const row = await prisma.conversation.findUnique({
      where: { id: binding.thread.id },
      select: { id: true, status: true, visitorId: true, visitorEmail: true },
    });
    if (!row) return null;
    conversation = row;
    visitorAddress = lower(row.visitorEmail);
  } else {
    const row = await prisma.ticket.findUnique({ where: { id: binding.thread.id }, select: { email: true } });
    if (!row) return null;
    visitorAddress = lower(row.email);
  }
  if (binding.recipient.kind === "visitor") return visitorAddress ? { binding, address: visitorAddress, conversation } : null;
  const member = await prisma.member.findUnique({ where: { id: binding.recipient.id }, select: { email: true, deactivatedAt: true } });
  const memberAddress = member && !member.deactivatedAt ? lower(member.email) : null;
  return memberAddress ? { binding, address: memberAddress, conversation } : null;
}
