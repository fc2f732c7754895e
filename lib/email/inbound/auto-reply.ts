import type { HeaderValue } from "mailparser";

// Mail no person wrote (decisions.md "Email in both directions"): vacation replies, bounces,
// list traffic. Answering them, or posting them, is how reply loops and floods start.

const BULK_PRECEDENCE = new Set(["bulk", "junk", "list", "auto_reply"]);

const headerText = (value: HeaderValue | undefined): string =>
  value === undefined ? "" : typeof value === "string" ? value : typeof value === "object" && "value" in value ? String(value.value) : String(value);

/**
 * Why the email is automatic, or null when a person wrote it. `returnPath` is the envelope sender
 * when known (SMTP), else the Return-Path header; an empty one (`<>`) is a bounce.
 */
export function autoReplyReason(headers: Map<string, HeaderValue>, returnPath: string | null | undefined): string | null {
  const autoSubmitted = headerText(headers.get("auto-submitted")).trim().toLowerCase();
  if (autoSubmitted !== "" && !autoSubmitted.startsWith("no")) return "auto_submitted";
  if (BULK_PRECEDENCE.has(headerText(headers.get("precedence")).trim().toLowerCase())) return "precedence";
  if (headers.has("x-autoreply") || headers.has("x-autorespond")) return "x_autoreply";
  if (returnPath === null || returnPath?.trim() === "" || returnPath?.trim() === "<>") return "empty_return_path";
  return null;
}
