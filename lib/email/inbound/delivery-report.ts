import type { HeaderValue, ParsedMail, StructuredHeader } from "mailparser";

// What a report sent to a bounce address says (docs/notifications.md, "Bounces and complaints"):
// a delivery status notification (RFC 3464: `multipart/report; report-type=delivery-status`) or a
// complaint in the Abuse Reporting Format (RFC 5965: `report-type=feedback-report`). mailparser
// splits the MIME (with `keepDeliveryStatus`, the message/delivery-status part stays a part); the
// parts' fields are RFC 822-style blocks read here. No npm package parses these structured parts:
// the bounce parsers there (email-bounce-parser and its like) match the human-readable text with
// regular expressions, which is what the machine-readable part exists to avoid.

export type Report =
  /** A recipient's delivery failed for good (`Action: failed`, `Status: 5.x.x`). */
  | { kind: "hard_bounce"; status: string }
  /** Delayed, or failed for now (`4.x.x`): the sending server is still trying. */
  | { kind: "delayed" }
  /** A DSN that reports no failure (delivered, relayed, expanded). */
  | { kind: "no_failure" }
  /** A feedback report of type `abuse`: the recipient marked the email as spam. */
  | { kind: "complaint" }
  /** A feedback report of another type (fraud, virus, not-spam, …). */
  | { kind: "other_feedback" }
  | { kind: "not_a_report" };

const STATUS = /^([245])\.\d{1,3}\.\d{1,3}$/;

export function readReport(parsed: ParsedMail): Report {
  const reportType = contentTypeParam(parsed.headers.get("content-type"), "report-type");
  if (reportType === "delivery-status") {
    const part = partOf(parsed, "message/delivery-status");
    return part === null ? { kind: "not_a_report" } : deliveryStatus(part);
  }
  if (reportType === "feedback-report") {
    const part = partOf(parsed, "message/feedback-report");
    if (part === null) return { kind: "not_a_report" };
    const [fields] = fieldBlocks(part);
    return fields?.get("feedback-type")?.toLowerCase() === "abuse" ? { kind: "complaint" } : { kind: "other_feedback" };
  }
  return { kind: "not_a_report" };
}

/** The first block is about the message; each next one about one recipient. */
function deliveryStatus(text: string): Report {
  const recipients = fieldBlocks(text).slice(1);
  let delayed = false;
  for (const fields of recipients) {
    const action = fields.get("action")?.toLowerCase();
    const status = STATUS.exec(fields.get("status")?.split(/\s/)[0] ?? "");
    if (action === "failed" && status?.[1] === "5") return { kind: "hard_bounce", status: status[0] };
    if (action === "delayed" || (action === "failed" && status?.[1] === "4")) delayed = true;
  }
  return delayed ? { kind: "delayed" } : { kind: "no_failure" };
}

function contentTypeParam(value: HeaderValue | undefined, name: string): string | null {
  if (typeof value !== "object" || value === null || !("params" in value)) return null;
  const header = value as StructuredHeader;
  if (header.value.toLowerCase() !== "multipart/report") return null;
  return header.params[name]?.trim().toLowerCase() ?? null;
}

function partOf(parsed: ParsedMail, contentType: string): string | null {
  const part = parsed.attachments.find((attachment) => attachment.contentType.toLowerCase() === contentType);
  return part ? part.content.toString("utf8") : null;
}

/** Blocks of `Name: value` fields separated by blank lines; folded lines unfolded, names lower-cased. */
function fieldBlocks(text: string): Map<string, string>[] {
  return text
    .replace(/\r\n/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.replace(/\n[ \t]+/g, " ").split("\n")) {
        const colon = line.indexOf(":");
        if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      return fields;
    })
    .filter((fields) => fields.size > 0);
}
