// Texts that operations of more than one resource share.

export const ATTACHMENT_DOWNLOAD = {
  status: 200,
  contentType: "application/octet-stream",
  description:
    "The file's bytes (not the envelope), `Content-Type` the stored media type, `Content-Disposition: attachment`, " +
    "`Cache-Control: private, no-store`, `Content-Security-Policy: default-src 'none'; sandbox`.",
} as const;

export const SNOOZE_RULES =
  "`until`: an ISO 8601 date-time with its offset, in the future and at most 90 days ahead (else 400 `invalid_request` naming `until`, nothing changed). The conversation is `snoozed` until then, or until the visitor writes, whichever comes first; then `open` again, with a staff-only `unsnoozed` timeline event. A closed conversation: 409 `conversation_closed`.";
