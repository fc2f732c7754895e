-- Parley round 2 foundation: members reachable by email (staff alerts, sign-in), and what the
-- visitor has been sent ("seen", decisions.md), which the inbox shows and follow-up emails wait on.

ALTER TABLE "members" ADD COLUMN "email" TEXT;
ALTER TABLE "members" ADD COLUMN "notify" BOOLEAN NOT NULL DEFAULT true;
-- Emails are stored lower-cased by the service, so a plain unique index is case-insensitive in effect.
CREATE UNIQUE INDEX "members_email_key" ON "members"("email");

ALTER TABLE "conversations" ADD COLUMN "visitor_seen_sequence" INTEGER NOT NULL DEFAULT 0;

-- When the member last had the inbox open (its live connection or any inbox API call, written at
-- most every few seconds): staff alerts go out only while nobody has looked for 60 s.
ALTER TABLE "members" ADD COLUMN "inbox_active_at" TIMESTAMPTZ(3);
